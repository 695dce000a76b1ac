# The assembly panel: a kernel's SASS and PTX beside the source, lines matched both ways, per-kernel
# resources and instruction mix, PC samples per instruction.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sassmodel.h ${CMAKE_CURRENT_LIST_DIR}/sassmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ptxmodel.h ${CMAKE_CURRENT_LIST_DIR}/ptxmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/assemblypanel.h ${CMAKE_CURRENT_LIST_DIR}/assemblypanel.cpp)
