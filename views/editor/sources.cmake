# The kernel editor: tabs of QScintilla with CUDA highlighting, compile diagnostics, per-kernel resources,
# read-only bars with "Fork to Edit", find/replace; all editor set-up in EditorSetup.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compileonly.h ${CMAKE_CURRENT_LIST_DIR}/compileonly.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cudalexer.h ${CMAKE_CURRENT_LIST_DIR}/cudalexer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diagnosticformat.h ${CMAKE_CURRENT_LIST_DIR}/diagnosticformat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/editorsetup.h ${CMAKE_CURRENT_LIST_DIR}/editorsetup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elidinglabel.h ${CMAKE_CURRENT_LIST_DIR}/elidinglabel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/findbar.h ${CMAKE_CURRENT_LIST_DIR}/findbar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelinfostrip.h ${CMAKE_CURRENT_LIST_DIR}/kernelinfostrip.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kerneltab.h ${CMAKE_CURRENT_LIST_DIR}/kerneltab.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kerneleditor.h ${CMAKE_CURRENT_LIST_DIR}/kerneleditor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readonlybar.h ${CMAKE_CURRENT_LIST_DIR}/readonlybar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/varianttabbinding.h ${CMAKE_CURRENT_LIST_DIR}/varianttabbinding.cpp

  ${CMAKE_CURRENT_LIST_DIR}/heatlinesmodel.h ${CMAKE_CURRENT_LIST_DIR}/heatlinesmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatgutter.h ${CMAKE_CURRENT_LIST_DIR}/heatgutter.cpp)
