# The composition root: the services made and configured from Settings, for the GUI and every kforge-cli command;
# and what spans them for the GUI: the open session's lifecycle (SessionController) and the one worker readiness the
# views observe (ReadinessWatch).
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/readinesswatch.h ${CMAKE_CURRENT_LIST_DIR}/readinesswatch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sessioncontroller.h ${CMAKE_CURRENT_LIST_DIR}/sessioncontroller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workbench.h ${CMAKE_CURRENT_LIST_DIR}/workbench.cpp)
