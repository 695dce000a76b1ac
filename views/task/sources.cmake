# The Task dock: what the open session's task asks for (description, parameters, tensors, tolerance,
# FLOP and byte formulas) and its speed-of-light floors on the measuring GPU.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/taskfloors.h ${CMAKE_CURRENT_LIST_DIR}/taskfloors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/taskinfomodel.h ${CMAKE_CURRENT_LIST_DIR}/taskinfomodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/taskpanel.h ${CMAKE_CURRENT_LIST_DIR}/taskpanel.cpp)
