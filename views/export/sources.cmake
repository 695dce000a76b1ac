# The export dialog: format, folder and license; a preview of every file with conflicts marked.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/exportdialog.h ${CMAKE_CURRENT_LIST_DIR}/exportdialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportplanmodel.h ${CMAKE_CURRENT_LIST_DIR}/exportplanmodel.cpp)
