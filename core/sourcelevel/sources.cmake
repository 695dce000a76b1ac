# Source-level views of a compiled kernel: SASS and PTX listings with their line tables, the instruction
# mix, and a source profile folded onto lines (the typed profile itself is core/eval/sourceprofile.*).
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sourcelocation.h ${CMAKE_CURRENT_LIST_DIR}/sourcelocation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sasslisting.h ${CMAKE_CURRENT_LIST_DIR}/sasslisting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ptxlisting.h ${CMAKE_CURRENT_LIST_DIR}/ptxlisting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/instructionmix.h ${CMAKE_CURRENT_LIST_DIR}/instructionmix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stallreason.h ${CMAKE_CURRENT_LIST_DIR}/stallreason.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sourceheat.h ${CMAKE_CURRENT_LIST_DIR}/sourceheat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/assemblyfetcher.h ${CMAKE_CURRENT_LIST_DIR}/assemblyfetcher.cpp)
