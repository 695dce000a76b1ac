#pragma once
// What the generators produce: the files of one export (paths relative to the output folder), and for the
// `into` format the lines the user adds to the host project's CMakeLists.txt.
#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

enum class ExportFormat {
    CMake, // a standalone CMake CUDA library project with test and benchmark
    Torch, // a PyTorch C++/CUDA extension with a Python test
    Into,  // the CMake library added to an existing CMake project under a subfolder
};

QString exportFormatName(ExportFormat f); // "cmake", "torch", "into"
std::optional<ExportFormat> exportFormatFromName(const QString &name);

struct ExportOptions {
    ExportFormat format = ExportFormat::CMake;
    QString licenseText; // put, commented, on top of every generated source file; empty: none
    QString intoSubdir;  // Into: the folder inside the host project, relative ("third_party/diag_matmul")
};

struct ExportFile {
    QString path; // relative, '/'-separated
    QByteArray content;
    bool executable = false;
};

struct ExportBundle {
    QList<ExportFile> files;
    QStringList cmakeLines; // Into: what to add to the host project's CMakeLists.txt
    QString error;          // set when the export could not be generated

    bool ok() const { return error.isEmpty(); }
    const ExportFile *find(const QString &path) const;
    // An export that hit an error ships no files, only the error; an empty message leaves the bundle as it is.
    void failWith(const QString &message);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ExportFile)
Q_DECLARE_METATYPE(kforge::ExportBundle)
