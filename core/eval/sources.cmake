# Evaluation value types (DeviceInfo, EvalResult, EvalOptions, KernelResources). core/CMakeLists.txt has no
# "eval" area, so core/compile/sources.cmake includes this file; the guard keeps it to one inclusion.
include_guard(GLOBAL)
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/deviceinfo.h ${CMAKE_CURRENT_LIST_DIR}/deviceinfo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evalresult.h ${CMAKE_CURRENT_LIST_DIR}/evalresult.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaloptions.h ${CMAKE_CURRENT_LIST_DIR}/evaloptions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelresources.h ${CMAKE_CURRENT_LIST_DIR}/kernelresources.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelname.h ${CMAKE_CURRENT_LIST_DIR}/kernelname.cpp
  ${CMAKE_CURRENT_LIST_DIR}/measureformat.h ${CMAKE_CURRENT_LIST_DIR}/measureformat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/speedoflight.h ${CMAKE_CURRENT_LIST_DIR}/speedoflight.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sourceprofile.h ${CMAKE_CURRENT_LIST_DIR}/sourceprofile.cpp
  ${CMAKE_CURRENT_LIST_DIR}/jsonfields.h)
