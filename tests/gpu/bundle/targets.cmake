# Included (deferred) by hook.cmake at the end of the top-level CMakeLists.txt.
if(TARGET kforge_gui AND EXISTS ${KFORGE_BUNDLE_SOURCE_DIR}/gui_shots.cpp)
  add_executable(gui_shots ${KFORGE_BUNDLE_SOURCE_DIR}/gui_shots.cpp)
  target_link_libraries(gui_shots PRIVATE kforge_gui kforge_views kforge_core)
endif()
