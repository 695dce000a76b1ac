# How the build goes fast on a 2-core machine (issue 38). Each part is used only where its tool is present,
# so a machine without them builds as before, only slower.
#  - ccache as the compiler launcher (C, C++, CUDA): its cache lives outside the build tree (~/.cache/ccache),
#    so a fresh clone on the same machine compiles from it. KFORGE_CCACHE=OFF turns it off.
#  - mold as the linker (88 test executables link the static core and views libraries).
#  - kforge_precompile(<target> <header set>): a precompiled header of the Qt, JSON and std headers most of our
#    translation units include; tests reuse one.
#  - kforge_unity(<target>): with KFORGE_UNITY (the ci preset, which scripts/test.sh builds), the library's sources
#    compiled eight to a translation unit: half the compile time of kforge_core and kforge_views on 2 cores. Two
#    files of one library then cannot both define a helper of the same name in an anonymous namespace.
option(KFORGE_CCACHE "Compile through ccache when it is installed" ON)
option(KFORGE_MOLD "Link with mold when it is installed" ON)
option(KFORGE_PCH "Precompiled headers (Qt, JSON, std) for the libraries and the test suites" ON)
option(KFORGE_UNITY "Compile the libraries as unity builds (batches of 8 sources)" OFF)

find_program(KFORGE_CCACHE_PROGRAM ccache)
if(KFORGE_CCACHE AND KFORGE_CCACHE_PROGRAM)
  # pch_defines,time_macros,include_file_mtime,include_file_ctime: what ccache needs to cache compiles that use a
  # precompiled header (ccache's manual, "Precompiled headers"); a fresh clone's files are all new, so mtimes
  # must not count either. Sources are hashed by content.
  set(_launcher ${CMAKE_COMMAND} -E env
      "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime,locale"
      CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1 ${KFORGE_CCACHE_PROGRAM})
  foreach(lang C CXX CUDA)
    if(NOT DEFINED CMAKE_${lang}_COMPILER_LAUNCHER)
      set(CMAKE_${lang}_COMPILER_LAUNCHER ${_launcher})
    endif()
  endforeach()
  set(KFORGE_USING_CCACHE ON)
else()
  set(KFORGE_USING_CCACHE OFF)
endif()
add_feature_info(ccache KFORGE_USING_CCACHE "compiler output cached between builds (${KFORGE_CCACHE_PROGRAM})")

find_program(KFORGE_MOLD_PROGRAM mold)
set(KFORGE_USING_MOLD OFF)
if(KFORGE_MOLD AND KFORGE_MOLD_PROGRAM AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12.1)
  add_link_options(-fuse-ld=mold)
  set(KFORGE_USING_MOLD ON)
endif()
add_feature_info(mold KFORGE_USING_MOLD "executables and libraries linked by mold")

# The header sets. Only system headers: a change to our own never rebuilds a precompiled one.
# The Qt-free runtime: the JSON library is most of what its translation units parse.
set(KFORGE_PCH_RUNTIME <algorithm> <chrono> <map> <memory> <optional> <string> <vector> <nlohmann/json.hpp>)
# What nearly every Qt translation unit parses; the Widgets set adds the panels' usual headers.
set(KFORGE_PCH_CORE
  <algorithm> <cmath> <functional> <map> <memory> <optional> <string> <utility> <vector>
  <QByteArray> <QCoreApplication> <QDateTime> <QDir> <QFile> <QFileInfo> <QHash> <QJsonArray> <QJsonDocument>
  <QJsonObject> <QList> <QMetaType> <QObject> <QPointer> <QRegularExpression> <QSet> <QString> <QStringList>
  <QTimer> <QVariant> <nlohmann/json.hpp>)
set(KFORGE_PCH_WIDGETS ${KFORGE_PCH_CORE}
  <QAbstractTableModel> <QCheckBox> <QComboBox> <QHBoxLayout> <QHeaderView> <QLabel> <QLineEdit> <QPushButton>
  <QSplitter> <QStyle> <QTableView> <QToolButton> <QVBoxLayout> <QWidget> <Qsci/qsciscintilla.h>)
set(KFORGE_PCH_CORE_TEST ${KFORGE_PCH_CORE} <QStandardPaths> <QTemporaryDir>)
set(KFORGE_PCH_WIDGETS_TEST ${KFORGE_PCH_WIDGETS} <QStandardPaths> <QTemporaryDir>)

# C++ sources only: a target's .cu files go to nvcc without it.
function(kforge_precompile target set)
  if(KFORGE_PCH)
    set(headers "")
    foreach(h ${KFORGE_PCH_${set}})
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${h}>")
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
  endif()
endfunction()

function(kforge_unity target)
  if(KFORGE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
