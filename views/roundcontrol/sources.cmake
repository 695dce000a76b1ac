# The Round control dock: endpoint, model and round settings, prompt preview and review, start / pause /
# stop, progress, tokens and cost.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/roundprogressmodel.h ${CMAKE_CURRENT_LIST_DIR}/roundprogressmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundcontrolpanel.h ${CMAKE_CURRENT_LIST_DIR}/roundcontrolpanel.cpp)
