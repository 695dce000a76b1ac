# Session store: one SQLite file per session (Qt SQL), its schema and the in-memory population.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/enumnames.h
  ${CMAKE_CURRENT_LIST_DIR}/evaluation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluation.h
  ${CMAKE_CURRENT_LIST_DIR}/evaluationsummary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluationsummary.h
  ${CMAKE_CURRENT_LIST_DIR}/pairanalysis.h
  ${CMAKE_CURRENT_LIST_DIR}/population.cpp
  ${CMAKE_CURRENT_LIST_DIR}/population.h
  ${CMAKE_CURRENT_LIST_DIR}/promptrecord.h
  ${CMAKE_CURRENT_LIST_DIR}/responserecord.h
  ${CMAKE_CURRENT_LIST_DIR}/roundrecord.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundrecord.h
  ${CMAKE_CURRENT_LIST_DIR}/sessioncontroller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sessioncontroller.h
  ${CMAKE_CURRENT_LIST_DIR}/sessionnote.h
  ${CMAKE_CURRENT_LIST_DIR}/sessionschema.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sessionschema.h
  ${CMAKE_CURRENT_LIST_DIR}/sessionstore.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sessionstore.h
  ${CMAKE_CURRENT_LIST_DIR}/taskrecord.cpp
  ${CMAKE_CURRENT_LIST_DIR}/taskrecord.h
  ${CMAKE_CURRENT_LIST_DIR}/variant.cpp
  ${CMAKE_CURRENT_LIST_DIR}/variant.h
)
