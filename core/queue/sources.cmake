# The one evaluation queue: every evaluation (rounds, the editor, forks, re-runs, the CLI) goes through it.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/evaluationbatch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluationbatch.h
  ${CMAKE_CURRENT_LIST_DIR}/evaluationqueue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluationqueue.h
  ${CMAKE_CURRENT_LIST_DIR}/metricspolicy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/metricspolicy.h
)
