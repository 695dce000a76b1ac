# Typed settings and the tool-chain probe. (translations.cpp is built into kforge_translations, with the
# .qm catalogues it loads: translations/CMakeLists.txt; they travel with kforge_core to every program.)
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/settings.h ${CMAKE_CURRENT_LIST_DIR}/settings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/toolchainprobe.h ${CMAKE_CURRENT_LIST_DIR}/toolchainprobe.cpp)
target_link_libraries(kforge_core PUBLIC kforge_translations)
