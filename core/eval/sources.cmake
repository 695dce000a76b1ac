# Evaluation value types (DeviceInfo, EvalResult, Measurement, EvalOptions, TimingSetting, and the compile outputs a
# measurement carries: Diagnostic, KernelResources), the figures every reader shows of a measurement, the measure
# formatting and the speed of light.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/deviceinfo.h ${CMAKE_CURRENT_LIST_DIR}/deviceinfo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diagnostic.h ${CMAKE_CURRENT_LIST_DIR}/diagnostic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evalresult.h ${CMAKE_CURRENT_LIST_DIR}/evalresult.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaloptions.h ${CMAKE_CURRENT_LIST_DIR}/evaloptions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelresources.h ${CMAKE_CURRENT_LIST_DIR}/kernelresources.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelname.h ${CMAKE_CURRENT_LIST_DIR}/kernelname.cpp
  ${CMAKE_CURRENT_LIST_DIR}/measurement.h ${CMAKE_CURRENT_LIST_DIR}/measurement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/measurementfigures.h ${CMAKE_CURRENT_LIST_DIR}/measurementfigures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/measureformat.h ${CMAKE_CURRENT_LIST_DIR}/measureformat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/speedoflight.h ${CMAKE_CURRENT_LIST_DIR}/speedoflight.cpp
  ${CMAKE_CURRENT_LIST_DIR}/timingdefaults.h ${CMAKE_CURRENT_LIST_DIR}/timingsetting.h
  ${CMAKE_CURRENT_LIST_DIR}/sourceprofile.h ${CMAKE_CURRENT_LIST_DIR}/sourceprofile.cpp
  ${CMAKE_CURRENT_LIST_DIR}/jsonfields.h ${CMAKE_CURRENT_LIST_DIR}/finite.h)
