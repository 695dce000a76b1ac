# The Charts dock (QCustomPlot): speedup by round, kernel times, roofline; export as PNG, SVG, PDF.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/chartbase.h ${CMAKE_CURRENT_LIST_DIR}/chartbase.cpp
  ${CMAKE_CURRENT_LIST_DIR}/speedupchart.h ${CMAKE_CURRENT_LIST_DIR}/speedupchart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kerneltimechart.h ${CMAKE_CURRENT_LIST_DIR}/kerneltimechart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooflinechart.h ${CMAKE_CURRENT_LIST_DIR}/rooflinechart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chartspanel.h ${CMAKE_CURRENT_LIST_DIR}/chartspanel.cpp)
