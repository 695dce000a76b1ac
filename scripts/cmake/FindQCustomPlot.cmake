# QCustomPlot built for Qt 6 (Debian: libqcustomplot-dev). Provides QCustomPlot::QCustomPlot.
find_package(QCustomPlotQt6 CONFIG QUIET)
if(TARGET QCustomPlotQt6::QCustomPlotQt6)
  set(QCustomPlot_FOUND TRUE)
  if(NOT TARGET QCustomPlot::QCustomPlot)
    add_library(QCustomPlot::QCustomPlot INTERFACE IMPORTED)
    set_target_properties(QCustomPlot::QCustomPlot PROPERTIES INTERFACE_LINK_LIBRARIES QCustomPlotQt6::QCustomPlotQt6
                          INTERFACE_COMPILE_DEFINITIONS QCUSTOMPLOT_USE_LIBRARY)
  endif()
else()
  find_path(QCustomPlot_INCLUDE_DIR qcustomplot.h)
  find_library(QCustomPlot_LIBRARY NAMES QCustomPlotQt6 qcustomplot-qt6)
  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(QCustomPlot REQUIRED_VARS QCustomPlot_LIBRARY QCustomPlot_INCLUDE_DIR)
  if(QCustomPlot_FOUND AND NOT TARGET QCustomPlot::QCustomPlot)
    add_library(QCustomPlot::QCustomPlot SHARED IMPORTED)
    set_target_properties(QCustomPlot::QCustomPlot PROPERTIES IMPORTED_LOCATION "${QCustomPlot_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${QCustomPlot_INCLUDE_DIR}" INTERFACE_COMPILE_DEFINITIONS QCUSTOMPLOT_USE_LIBRARY
      INTERFACE_LINK_LIBRARIES "Qt::Widgets;Qt::PrintSupport")
  endif()
endif()
