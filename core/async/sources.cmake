# Asynchronous work reaching its owner: the one late-result guard (whenFinished, LateResultGuard).
target_sources(kforge_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/lateresultguard.h)
