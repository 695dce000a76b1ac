# The client side of kforge-worker (core/runtime/worker/): one worker process each (QProcess, JSON lines), the pool
# of them, their probes and readiness, the Evaluator interface and its implementations.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/evaljob.h
  ${CMAKE_CURRENT_LIST_DIR}/evaluator.h
  ${CMAKE_CURRENT_LIST_DIR}/poolevaluator.h ${CMAKE_CURRENT_LIST_DIR}/poolevaluator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scriptedevaluator.h ${CMAKE_CURRENT_LIST_DIR}/scriptedevaluator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchdiagnosis.h ${CMAKE_CURRENT_LIST_DIR}/torchdiagnosis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchprobe.h ${CMAKE_CURRENT_LIST_DIR}/torchprobe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerclient.h ${CMAKE_CURRENT_LIST_DIR}/workerclient.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerconfig.h ${CMAKE_CURRENT_LIST_DIR}/workerconfig.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerpool.h ${CMAKE_CURRENT_LIST_DIR}/workerpool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerprobe.h ${CMAKE_CURRENT_LIST_DIR}/workerprobe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerreadiness.h ${CMAKE_CURRENT_LIST_DIR}/workerreadiness.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerreply.h ${CMAKE_CURRENT_LIST_DIR}/workerreply.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workerstatus.h ${CMAKE_CURRENT_LIST_DIR}/workerstatus.cpp)
