# The Compare dock: two variants' measurements side by side and "why is A faster than B".
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/comparemetricsmodel.h ${CMAKE_CURRENT_LIST_DIR}/comparemetricsmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/timeratio.h ${CMAKE_CURRENT_LIST_DIR}/timeratio.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernellistmodel.h ${CMAKE_CURRENT_LIST_DIR}/kernellistmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatcompareview.h ${CMAKE_CURRENT_LIST_DIR}/heatcompareview.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comparepanel.h ${CMAKE_CURRENT_LIST_DIR}/comparepanel.cpp)
