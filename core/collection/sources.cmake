# Collection: verifying a collection of (problem, candidate) pairs (`kforge-cli verify`,
# docs/verify-collection.md): the three layouts' readers, the import of their problems (held-out sizes included),
# the runner over the evaluation queue with its results log, and the table, report and CSV.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/collection.h ${CMAKE_CURRENT_LIST_DIR}/collection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/problemindex.h ${CMAKE_CURRENT_LIST_DIR}/problemindex.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectionreader.h ${CMAKE_CURRENT_LIST_DIR}/collectionreader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/problemfolderreader.h ${CMAKE_CURRENT_LIST_DIR}/problemfolderreader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/releasedjsonreader.h ${CMAKE_CURRENT_LIST_DIR}/releasedjsonreader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelbenchrunreader.h ${CMAKE_CURRENT_LIST_DIR}/kernelbenchrunreader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heldoutsizes.h ${CMAKE_CURRENT_LIST_DIR}/heldoutsizes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectionimporter.h ${CMAKE_CURRENT_LIST_DIR}/collectionimporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifyrecord.h ${CMAKE_CURRENT_LIST_DIR}/verifyrecord.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resultslog.h ${CMAKE_CURRENT_LIST_DIR}/resultslog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifyrunner.h ${CMAKE_CURRENT_LIST_DIR}/verifyrunner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hackclass.h ${CMAKE_CURRENT_LIST_DIR}/hackclass.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifytable.h ${CMAKE_CURRENT_LIST_DIR}/verifytable.cpp
  ${CMAKE_CURRENT_LIST_DIR}/speedupscattersvg.h ${CMAKE_CURRENT_LIST_DIR}/speedupscattersvg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifyreport.h ${CMAKE_CURRENT_LIST_DIR}/verifyreport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectionverifier.h ${CMAKE_CURRENT_LIST_DIR}/collectionverifier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchextension.h ${CMAKE_CURRENT_LIST_DIR}/torchextension.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pairsession.h ${CMAKE_CURRENT_LIST_DIR}/pairsession.cpp)
