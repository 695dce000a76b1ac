# The side-by-side diff of two variants: DiffModel (aligned rows, dtl) and DiffView (two QScintilla panes).
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/diffmodel.h ${CMAKE_CURRENT_LIST_DIR}/diffmodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diffview.h ${CMAKE_CURRENT_LIST_DIR}/diffview.cpp)
