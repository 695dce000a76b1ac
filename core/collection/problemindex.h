#pragma once
// The KernelBench problems of a folder, indexed by what names them: the path, the stem, the level (a `level1/`
// folder or a `level_1_` prefix) and the problem number (the leading `19_` of `19_ReLU.py`). The folder and run
// readers pair candidates through it; it also reads a level and a number off any other name.
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

struct ProblemFile {
    QString path;        // absolute
    QString relative;    // to the indexed folder, '/' separated
    QString stem;        // the file name without .py
    int level = 0;       // 0: not known
    int number = -1;     // -1: not known
    QString key() const; // the task name it gets: level and stem, "level1_19_relu"
};

class ProblemIndex
{
public:
    // Every *.py below `folder` (hidden folders and __pycache__ left out), sorted by path. A KernelBench checkout
    // (KernelBench/level1/...) or its KernelBench/ folder works as well as a folder of levels or of problems.
    static ProblemIndex scan(const QString &folder);

    const QList<ProblemFile> &problems() const { return m_problems; }
    bool isEmpty() const { return m_problems.isEmpty(); }
    QString folder() const { return m_folder; }

    // The problems with this relative path without extension, or else this stem (case-insensitive).
    QList<const ProblemFile *> byName(const QString &relativeStem) const;
    // The problems numbered `number`, in `level` unless it is 0.
    QList<const ProblemFile *> byNumber(int number, int level) const;
    // The levels that hold a problem numbered `number`.
    QList<int> levelsOf(int number) const;

    // A level a path names: a component or prefix `level1`, `level_1`, `level-1`; 0 for none.
    static int levelIn(const QString &relativePath);
    // A problem number a file name gives: its leading digits (`19_ReLU`), the digits after a level prefix
    // (`level1_19_...`, `level_1_problem_19_...`) or after `problem_`/`p`; -1 for none.
    static int numberIn(const QString &stem);
    // Paths in natural order: "level1/2_ReLU.py" before "level1/10_HardTanh.py".
    static bool naturalLess(const QString &a, const QString &b);

private:
    QString m_folder;
    QList<ProblemFile> m_problems;
};

} // namespace kforge
