# The Collection page: a verified collection (File → Verify Collection…) as a sortable table with its summary and
# progress, and the dialog that starts or continues a verification.
target_sources(kforge_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/verifytablemodel.h ${CMAKE_CURRENT_LIST_DIR}/verifytablemodel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifytableproxy.h ${CMAKE_CURRENT_LIST_DIR}/verifytableproxy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectionpanel.h ${CMAKE_CURRENT_LIST_DIR}/collectionpanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verifycollectiondialog.h ${CMAKE_CURRENT_LIST_DIR}/verifycollectiondialog.cpp)
