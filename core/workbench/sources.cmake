# The composition root: the services made and configured from Settings, for the GUI and every kforge-cli command.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/workbench.h ${CMAKE_CURRENT_LIST_DIR}/workbench.cpp)
