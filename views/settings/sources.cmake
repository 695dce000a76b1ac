# The settings dialog and its pages.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/settingspage.h
  ${CMAKE_CURRENT_LIST_DIR}/settingsdialog.h ${CMAKE_CURRENT_LIST_DIR}/settingsdialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generalpage.h ${CMAKE_CURRENT_LIST_DIR}/generalpage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compilerpage.h ${CMAKE_CURRENT_LIST_DIR}/compilerpage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerspage.h ${CMAKE_CURRENT_LIST_DIR}/workerspage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/timingpage.h ${CMAKE_CURRENT_LIST_DIR}/timingpage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/endpointspage.h ${CMAKE_CURRENT_LIST_DIR}/endpointspage.cpp)
