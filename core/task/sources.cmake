# Task: the Qt-side wrapper over kforge_taskspec (linked PUBLIC by kforge_core already), what the task panel
# shows of any task, and importing PyTorch problems (kforge-cli import and the GUI).
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/task.h ${CMAKE_CURRENT_LIST_DIR}/task.cpp
  ${CMAKE_CURRENT_LIST_DIR}/taskkind.h ${CMAKE_CURRENT_LIST_DIR}/taskkind.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sourcelanguage.h ${CMAKE_CURRENT_LIST_DIR}/sourcelanguage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tasksummary.h ${CMAKE_CURRENT_LIST_DIR}/tasksummary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchimport.h ${CMAKE_CURRENT_LIST_DIR}/torchimport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchimportbatch.h ${CMAKE_CURRENT_LIST_DIR}/torchimportbatch.cpp)
