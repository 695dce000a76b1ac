#pragma once
// The steps nvcc would run for one compile, read from its `--dryrun` output, grouped so that the host front
// end (preprocessor, cudafe++) and the device compile (preprocessor, cicc, ptxas, fatbinary) can run at the
// same time: nvcc runs them one after the other only because cicc reads the module id that cudafe++ writes.
// Writing that id first (moduleIdText) removes the dependency; everything else is nvcc's own command lines.
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

namespace kforge {

struct NvccPlan {
    enum class Track { Host, Device, Tail };
    struct Step {
        QString command;    // one shell command as nvcc prints it (run with /bin/sh -c, as nvcc does)
        QStringList remove; // instead of a command: files nvcc deletes itself ("rm" lines)
        QString name;       // "cudafe++", "cicc", "gcc (compiling)"...
        QString fallback;   // run instead when `command` fails: the step as nvcc would run it (useLinker)
        Track track = Track::Tail;
    };

    QList<std::pair<QString, QString>> environment; // variables nvcc sets for its tools (PATH, CICC_PATH...)
    QList<Step> steps;                              // in nvcc's order; Host and Device steps may overlap
    QString moduleIdFile;                           // as the commands name it (relative to the work folder)
    QString messages;                               // what nvcc itself printed (its warnings), for the log
    // The host compile: the tail step that compiles what cudafe++ wrote (hostSource, relative to the work
    // folder) into an object (-1 where the plan has none), and the source's name as cudafe++ was told it.
    qsizetype hostCompile = -1;
    QString hostSource;
    QString sourceName;

    // Parses `nvcc --dryrun` output (its stderr). Empty, with the reason in *whyNot, when the steps do not
    // have the shape above (another nvcc, -t with redirected output, no host compile...): run plain nvcc then.
    static std::optional<NvccPlan> fromDryrun(const QString &dryrun, QString *whyNot = nullptr);

    // The id cudafe++ would generate for `sourceFileName` ("_8hex_<length>_<name>_8hex"), from `seed` hex.
    static QString moduleIdText(const QString &sourceFileName, const QString &seed);

    // Without relocatable device code (-rdc) there is no device code to link: nvcc's device link (nvlink, a
    // fatbinary of its empty image, a stub compiled around it) adds an empty module to the shared object and
    // about 20 ms to the compile. Removes those steps and their object from the final link; false, with the
    // plan unchanged, where the plan is not of that shape (rdc, other objects, no such steps).
    bool dropDeviceLink(QString *whyNot = nullptr);
    // The final link through another linker of the host compiler (-fuse-ld=gold: half of bfd's 55 ms); where
    // it fails, the step runs again as nvcc wrote it, so that errors read as nvcc's.
    bool useLinker(const QString &linker);

    // "gcc (preprocessing)", "cudafe++", "$CICC_PATH/cicc" -> "cicc"...: a short name for a command line.
    static QString stepName(const QString &command);

    // The words of a command nvcc printed, split as sh would (quotes, backslashes); false where the line uses
    // more of the shell than that. shellCommand() is the inverse: each word quoted for sh.
    static bool shellWords(const QString &command, QStringList *words);
    static QString shellCommand(const QStringList &words);
};

} // namespace kforge
