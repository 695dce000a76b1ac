# The kernel editor: QScintilla tabs with CUDA highlighting, find/replace; all set-up in EditorSetup.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cudalexer.h ${CMAKE_CURRENT_LIST_DIR}/cudalexer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/editorsetup.h ${CMAKE_CURRENT_LIST_DIR}/editorsetup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/findbar.h ${CMAKE_CURRENT_LIST_DIR}/findbar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kerneleditor.h ${CMAKE_CURRENT_LIST_DIR}/kerneleditor.cpp)
