# The log panel: LogHub entries as a filterable list.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/logmodel.h ${CMAKE_CURRENT_LIST_DIR}/logmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/logfiltermodel.h ${CMAKE_CURRENT_LIST_DIR}/logfiltermodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/logpanel.h ${CMAKE_CURRENT_LIST_DIR}/logpanel.cpp)
