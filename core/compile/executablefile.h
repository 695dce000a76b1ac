#pragma once
// Whether a path names a program this user may run: the test the tool locators (nvcc, kforge-worker) share.
#include <QFileInfo>
#include <QString>

namespace kforge {

inline bool isExecutableFile(const QString &path)
{
    const QFileInfo fi(path);
    return fi.isFile() && fi.isExecutable();
}

} // namespace kforge
