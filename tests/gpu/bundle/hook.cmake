# Adds gui_shots (the GPU bundle's screenshot program: opens a real session in the workbench offscreen and saves
# PNGs of the window and each panel) to a KForge build without touching the project's own CMake files:
#   cmake -S . -B <dir> -DCMAKE_PROJECT_KForge_INCLUDE=<repo>/tests/gpu/bundle/hook.cmake
# The definition is deferred to the end of the top-level CMakeLists.txt, when kforge_gui exists.
set(KFORGE_BUNDLE_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
cmake_language(DEFER CALL include ${KFORGE_BUNDLE_SOURCE_DIR}/targets.cmake)
