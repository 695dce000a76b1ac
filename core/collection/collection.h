#pragma once
// A collection of (problem, candidate) pairs to verify (`kforge-cli verify`, docs/verify-collection.md), as read
// from one of three layouts by CollectionReader: plain values, no I/O. Every pair carries both texts, so what
// comes after (import, evaluation, report) never goes back to the layout; every record that could not become a
// pair is a CollectionIssue with where it is and why, and the rest of the collection goes on.
#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

enum class CollectionFormat {
    ProblemFolder,  // a folder of KernelBench problems and a folder of candidates, paired by name or number
    ReleasedJson,   // a list (or an object of lists per level) of {task_id, ref_code, custom_code, score}
    KernelBenchRun, // KernelBench's runs/<name>/level_L_problem_P_sample_S_kernel.py, problems from a checkout
};
QString formatName(CollectionFormat f); // "folder", "json", "run": the --format words

enum class CandidateKind {
    ModelNew, // a Python module defining ModelNew (load_inline inside included)
    Cuda,     // a KForge .cu kernel (KF_ENTRY)
    TorchExtension, // a .cu binding forward with PYBIND11_MODULE: wrapped as a ModelNew by CollectionReader
                    // (core/collection/torchextension.h), never left as a pair of this kind
    Unknown,  // none of them: an issue, never a pair
};
QString kindName(CandidateKind k); // "ModelNew", ".cu", "?"
// What a candidate text is: ModelNew when a line defines class ModelNew (or assigns it), Cuda for KF_ENTRY,
// TorchExtension for a PYBIND11_MODULE binding forward.
CandidateKind candidateKind(const QString &source);
// Whether a problem text defines KernelBench's class Model.
bool definesModel(const QString &source);

struct CollectionIssue {
    QString where;        // a path relative to the collection, or "kernels.json level1[3]"
    QString message;      // translated, says what is wrong and, where it helps, what would fix it
    bool blocking = true; // false: a note (a file that is no candidate, a score that is not a number)
};

struct CollectionPair {
    QString id;            // unique in the collection and stable across runs: the resume key
    QString problemKey;    // the problem's task name, [a-z0-9_] (equal texts share one)
    QString problemSource; // KernelBench format: class Model, get_inputs(), get_init_inputs()
    QString problemOrigin; // where it came from, for people
    QString candidateName; // a file name for the evaluator and its diagnostics ("2_ReLU.py", "kernel.cu")
    QString candidateSource;
    QString candidateOrigin;
    CandidateKind kind = CandidateKind::Unknown;
    int level = 0;          // 0: not known
    int problemNumber = -1; // KernelBench's problem id, -1: not known
    int sample = -1;        // a run folder's sample id
    std::optional<double> claimedSpeedup;
    std::optional<bool> claimedCorrect; // what the collection says of it (a run's eval_results.json)
    QStringList notes;                  // translated, for the plan and the report
};

struct Collection {
    CollectionFormat format = CollectionFormat::ProblemFolder;
    QString path; // what the user named
    QList<CollectionPair> pairs;
    QList<CollectionIssue> issues;

    int blockingIssues() const;
    // The pairs whose id or problem key contains one of `names` (case-insensitive), all for an empty list.
    QList<CollectionPair> selected(const QStringList &names) const;
};

// A task name for a problem: lower case, every character outside [a-z0-9_] made '_' (torchimport's rule), and
// never empty.
QString problemKeyFor(const QString &name);

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Collection)
