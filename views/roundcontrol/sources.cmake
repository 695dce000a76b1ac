# The Round control dock: endpoint, model and round settings, the session's rounds and their candidates, prompt
# preview and review, start / pause / stop, progress, tokens and cost.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/promptview.h ${CMAKE_CURRENT_LIST_DIR}/promptview.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundhistorymodel.h ${CMAKE_CURRENT_LIST_DIR}/roundhistorymodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundsetuppage.h ${CMAKE_CURRENT_LIST_DIR}/roundsetuppage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundspage.h ${CMAKE_CURRENT_LIST_DIR}/roundspage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundprogressmodel.h ${CMAKE_CURRENT_LIST_DIR}/roundprogressmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundcontrolpanel.h ${CMAKE_CURRENT_LIST_DIR}/roundcontrolpanel.cpp)
