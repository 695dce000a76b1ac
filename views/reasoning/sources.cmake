# The Reasoning dock: the model's answers as Markdown, live while they stream.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reasoningentriesmodel.h ${CMAKE_CURRENT_LIST_DIR}/reasoningentriesmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reasoningpanel.h ${CMAKE_CURRENT_LIST_DIR}/reasoningpanel.cpp)
