# The Variants dock: the population as a table (model, filter, panel), the shared selection and the worker's words
# as the GUI shows them.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/measurementtext.h ${CMAKE_CURRENT_LIST_DIR}/measurementtext.cpp
  ${CMAKE_CURRENT_LIST_DIR}/variantselection.h ${CMAKE_CURRENT_LIST_DIR}/variantselection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/variantsmodel.h ${CMAKE_CURRENT_LIST_DIR}/variantsmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/variantsfiltermodel.h ${CMAKE_CURRENT_LIST_DIR}/variantsfiltermodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/variantspanel.h ${CMAKE_CURRENT_LIST_DIR}/variantspanel.cpp)
