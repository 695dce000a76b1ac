# The log hub: messages from compiler, workers, model and app for the log panel.
target_sources(kforge_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/loghub.h ${CMAKE_CURRENT_LIST_DIR}/loghub.cpp)
