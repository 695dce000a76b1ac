# The compile service: nvcc through QProcess (host and device steps in parallel), content-addressed cache,
# diagnostics and ptxas resources parsed (their types are core/eval/'s, a measurement carries them); the syntax
# check of a ModelNew module where nothing can evaluate it.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compiler.h ${CMAKE_CURRENT_LIST_DIR}/compiler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compilercache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compilerequest.h
  ${CMAKE_CURRENT_LIST_DIR}/compileresult.h ${CMAKE_CURRENT_LIST_DIR}/compileresult.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cudatoolkit.h ${CMAKE_CURRENT_LIST_DIR}/cudatoolkit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diagnosticparser.h ${CMAKE_CURRENT_LIST_DIR}/diagnosticparser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/executablefile.h
  ${CMAKE_CURRENT_LIST_DIR}/hostpch.h ${CMAKE_CURRENT_LIST_DIR}/hostpch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernelbuildflags.h ${CMAKE_CURRENT_LIST_DIR}/kernelbuildflags.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nvccplan.h ${CMAKE_CURRENT_LIST_DIR}/nvccplan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nvccrun.h ${CMAKE_CURRENT_LIST_DIR}/nvccrun.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ptxasresourceparser.h ${CMAKE_CURRENT_LIST_DIR}/ptxasresourceparser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pythonsyntaxcheck.h ${CMAKE_CURRENT_LIST_DIR}/pythonsyntaxcheck.cpp)
