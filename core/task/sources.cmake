# Task: the Qt-side wrapper over kforge_taskspec (linked PUBLIC by kforge_core already).
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/task.h ${CMAKE_CURRENT_LIST_DIR}/task.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sourcelanguage.h ${CMAKE_CURRENT_LIST_DIR}/sourcelanguage.cpp)
