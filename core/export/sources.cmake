# Exporters (cmake / torch, with a torch task's ModelNew module's and .cu kernel's own / into), session report and training-data writer; templates compiled in.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/codenames.h ${CMAKE_CURRENT_LIST_DIR}/codenames.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmakeexporter.h ${CMAKE_CURRENT_LIST_DIR}/cmakeexporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportbundle.h ${CMAKE_CURRENT_LIST_DIR}/exportbundle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportcontext.h ${CMAKE_CURRENT_LIST_DIR}/exportcontext.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exporter.h ${CMAKE_CURRENT_LIST_DIR}/exporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportinput.h ${CMAKE_CURRENT_LIST_DIR}/exportinput.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportplan.h ${CMAKE_CURRENT_LIST_DIR}/exportplan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exportreadme.h ${CMAKE_CURRENT_LIST_DIR}/exportreadme.cpp
  ${CMAKE_CURRENT_LIST_DIR}/licenseheader.h ${CMAKE_CURRENT_LIST_DIR}/licenseheader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/markdownhtml.h ${CMAKE_CURRENT_LIST_DIR}/markdownhtml.cpp
  ${CMAKE_CURRENT_LIST_DIR}/modelnewexporter.h ${CMAKE_CURRENT_LIST_DIR}/modelnewexporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nvccflags.h ${CMAKE_CURRENT_LIST_DIR}/nvccflags.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reportinput.h ${CMAKE_CURRENT_LIST_DIR}/reportinput.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reportwriter.h ${CMAKE_CURRENT_LIST_DIR}/reportwriter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sessionexportsource.h ${CMAKE_CURRENT_LIST_DIR}/sessionexportsource.cpp
  ${CMAKE_CURRENT_LIST_DIR}/speedupchartsvg.h ${CMAKE_CURRENT_LIST_DIR}/speedupchartsvg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templaterenderer.h ${CMAKE_CURRENT_LIST_DIR}/templaterenderer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchexporter.h ${CMAKE_CURRENT_LIST_DIR}/torchexporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/torchkernelexporter.h ${CMAKE_CURRENT_LIST_DIR}/torchkernelexporter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trainingdata.h ${CMAKE_CURRENT_LIST_DIR}/trainingdata.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unifieddiff.h ${CMAKE_CURRENT_LIST_DIR}/unifieddiff.cpp)
target_link_libraries(kforge_core PRIVATE Dtl::Dtl PkgConfig::Md4cHtml)

# Templates of the generated projects, and the kernel ABI header every export ships a copy of.
set(_kforge_export_res ${PROJECT_SOURCE_DIR}/resources/export)
set(_kforge_export_files
  ${_kforge_export_res}/README.md.in
  ${_kforge_export_res}/torch_exprs.json
  ${_kforge_export_res}/cmake/CMakeLists.txt.in
  ${_kforge_export_res}/cmake/header.h.in
  ${_kforge_export_res}/cmake/wrapper.cpp.in
  ${_kforge_export_res}/cmake/harness.h.in
  ${_kforge_export_res}/cmake/test.cpp.in
  ${_kforge_export_res}/cmake/bench.cpp.in
  ${_kforge_export_res}/torch/setup.py.in
  ${_kforge_export_res}/torch/binding.cpp.in
  ${_kforge_export_res}/torch/test.py.in
  ${_kforge_export_res}/modelnew/harness.py.in
  ${_kforge_export_res}/modelnew/test_model_new.py.in
  ${_kforge_export_res}/modelnew/bench_model_new.py.in
  ${_kforge_export_res}/modelnew/kernel_model_new.py.in
  ${_kforge_export_res}/modelnew/kernel_binding.cpp.in)
qt_add_resources(kforge_core kforge_export_templates
  PREFIX /kforge/export
  BASE ${_kforge_export_res}
  FILES ${_kforge_export_files})
set(_kforge_abi_header ${PROJECT_SOURCE_DIR}/core/runtime/include/kforge/kernel.h)
set_source_files_properties(${_kforge_abi_header} PROPERTIES QT_RESOURCE_ALIAS kernel.h)
qt_add_resources(kforge_core kforge_export_abi
  PREFIX /kforge/export/abi/kforge
  FILES ${_kforge_abi_header})
