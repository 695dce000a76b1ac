#include "core/compile/nvccplan.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Splits a command line into words the way sh would for the simple commands nvcc prints: double quotes
// (with backslash escapes), single quotes, backslashes. False when the line uses anything else of the
// shell (redirections, pipes, lists, subshells, command substitution): such a plan is not one we know.
bool splitWords(const QString &line, QStringList *words)
{
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (c == u'"') {
            inWord = true;
            for (++i; i < line.size() && line.at(i) != u'"'; ++i) {
                if (line.at(i) == u'\\' && i + 1 < line.size() && QStringView(u"\"\\$`").contains(line.at(i + 1)))
                    ++i;
                else if (line.at(i) == u'`')
                    return false;
                word += line.at(i);
            }
            if (i >= line.size())
                return false; // unterminated
        } else if (c == u'\'') {
            inWord = true;
            const qsizetype end = line.indexOf(u'\'', i + 1);
            if (end < 0)
                return false;
            word += line.mid(i + 1, end - i - 1);
            i = end;
        } else if (c == u'\\' && i + 1 < line.size()) {
            inWord = true;
            word += line.at(++i);
        } else if (c.isSpace()) {
            if (inWord)
                words->append(word);
            word.clear();
            inWord = false;
        } else if (QStringView(u"|&;<>()`").contains(c)) {
            return false;
        } else {
            inWord = true;
            word += c;
        }
    }
    if (inWord)
        words->append(word);
    return true;
}

// The value after `option` ("--module_id_file_name X"), or empty.
QString optionValue(const QStringList &words, const QString &option)
{
    const qsizetype i = words.indexOf(option);
    return i >= 0 && i + 1 < words.size() ? words.at(i + 1) : QString();
}

QString unquoted(const QString &value)
{
    if (value.size() >= 2 && value.startsWith(u'"') && value.endsWith(u'"') && value.count(u'"') == 2)
        return value.mid(1, value.size() - 2);
    return value;
}

} // namespace

bool NvccPlan::shellWords(const QString &command, QStringList *words)
{
    return splitWords(command, words);
}

QString NvccPlan::shellCommand(const QStringList &words)
{
    QStringList quoted;
    quoted.reserve(words.size());
    for (QString w : words)
        quoted << u'\'' + w.replace(u"'"_s, u"'\\''"_s) + u'\'';
    return quoted.join(u' ');
}

namespace {

// The value after "-o" (or empty).
QString outputOf(const QStringList &words)
{
    return optionValue(words, u"-o"_s);
}

} // namespace

bool NvccPlan::dropDeviceLink(QString *whyNot)
{
    auto refuse = [whyNot](const QString &why) {
        if (whyNot)
            *whyNot = why;
        return false;
    };
    if (hostCompile < 0)
        return refuse(u"no host compile"_s);
    QList<QStringList> words;
    for (const Step &step : std::as_const(steps)) {
        QStringList w;
        if (!step.command.isEmpty() && !splitWords(step.command, &w))
            return refuse(u"a step is not plain words"_s);
        if (w.contains(u"--device-c"_s) || w.contains(u"-dc"_s) || w.contains(u"-rdc=true"_s))
            return refuse(u"relocatable device code: the device link is needed"_s);
        words.append(w);
    }
    const QString hostObject = outputOf(words.at(hostCompile));
    QList<qsizetype> nvlinks; // one per real architecture
    qsizetype fatbin = -1, stub = -1;
    for (qsizetype i = hostCompile + 1; i < steps.size(); ++i) {
        const QString &name = steps.at(i).name;
        if (name == u"nvlink" && fatbin < 0)
            nvlinks << i;
        else if (name == u"fatbinary" && !nvlinks.isEmpty() && fatbin < 0 && words.at(i).contains(u"-link"_s))
            fatbin = i;
        else if (fatbin >= 0 && stub < 0 && words.at(i).contains(u"-c"_s)
                 && std::any_of(words.at(i).cbegin(), words.at(i).cend(),
                                [](const QString &w) { return w.startsWith(u"-DFATBINFILE="_s); }))
            stub = i;
    }
    qsizetype link = steps.size() - 1;
    while (link > 0 && steps.at(link).command.isEmpty())
        --link; // rm steps
    if (nvlinks.isEmpty() || fatbin < 0 || stub < 0 || link <= stub
        || !steps.at(link).name.endsWith(u"(linking)"_s))
        return refuse(u"no device link of the expected shape"_s);
    // nvlink must link the host object alone: anything else may hold relocatable device code.
    for (qsizetype nvlink : std::as_const(nvlinks)) {
        QStringList objects;
        for (const QString &w : words.at(nvlink))
            if (w.endsWith(u".o"_s) || w.endsWith(u".a"_s) || w.endsWith(u".obj"_s))
                objects << w;
        if (objects != QStringList{hostObject})
            return refuse(u"the device link reads more than the host object"_s);
    }
    const QString linkObject = outputOf(words.at(stub));
    QStringList linkWords = words.at(link);
    if (linkObject.isEmpty() || linkWords.count(linkObject) != 1 || steps.at(link).command.contains(u'$'))
        return refuse(u"the final link does not read the device link's object once"_s);
    linkWords.removeOne(linkObject);
    steps[link].command = shellCommand(linkWords);
    steps.removeAt(stub);
    steps.removeAt(fatbin);
    for (auto i = nvlinks.crbegin(); i != nvlinks.crend(); ++i)
        steps.removeAt(*i);
    return true;
}

bool NvccPlan::useLinker(const QString &linker)
{
    for (qsizetype i = steps.size() - 1; i >= 0; --i) {
        Step &step = steps[i];
        if (step.command.isEmpty())
            continue;
        QStringList w;
        if (!step.name.endsWith(u"(linking)"_s) || !splitWords(step.command, &w) || step.command.contains(u'$')
            || std::any_of(w.cbegin(), w.cend(), [](const QString &x) { return x.startsWith(u"-fuse-ld="_s); }))
            return false;
        w.insert(1, u"-fuse-ld="_s + linker);
        step.fallback = step.command;
        step.command = shellCommand(w);
        return true;
    }
    return false;
}

QString NvccPlan::stepName(const QString &command)
{
    QStringList words;
    if (!splitWords(command, &words) || words.isEmpty())
        return command.section(u' ', 0, 0);
    const QString tool = QFileInfo(words.first()).fileName();
    static const QSet<QString> cudaTools{u"cudafe++"_s, u"cicc"_s,  u"ptxas"_s, u"fatbinary"_s,
                                         u"nvlink"_s,   u"bin2c"_s, u"nvvm"_s};
    if (cudaTools.contains(tool))
        return tool;
    // The host compiler (gcc, g++, clang, or -ccbin's), named by what nvcc asks of it, as `nvcc --time` does.
    if (words.contains(u"-E"_s))
        return tool + u" (preprocessing)"_s;
    if (words.contains(u"-c"_s))
        return tool + u" (compiling)"_s;
    return tool + u" (linking)"_s;
}

QString NvccPlan::moduleIdText(const QString &sourceFileName, const QString &seed)
{
    static const QRegularExpression other(u"[^A-Za-z0-9]"_s);
    QString name = sourceFileName;
    name.replace(other, u"_"_s);
    const QString hex = QString(seed + u"0000000000000000"_s).left(16);
    return u"_%1_%2_%3_%4"_s.arg(hex.left(8)).arg(sourceFileName.toUtf8().size()).arg(name, hex.mid(8, 8));
}

std::optional<NvccPlan> NvccPlan::fromDryrun(const QString &dryrun, QString *whyNot)
{
    auto refuse = [whyNot](const QString &why) -> std::optional<NvccPlan> {
        if (whyNot)
            *whyNot = why;
        return std::nullopt;
    };
    static const QRegularExpression assignment(u"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$"_s);
    NvccPlan plan;
    QList<QStringList> words; // of each step, for the checks below
    for (const QString &raw : dryrun.split(u'\n')) {
        const QString line = raw.endsWith(u'\r') ? raw.chopped(1) : raw;
        if (!line.startsWith(u"#$ "_s)) {
            if (!line.trimmed().isEmpty())
                plan.messages += line + u'\n';
            continue;
        }
        const QString text = line.mid(3).trimmed();
        if (text.isEmpty())
            continue;
        if (const auto m = assignment.match(text); m.hasMatch()) {
            plan.environment.append({m.captured(1), unquoted(m.captured(2))});
            continue;
        }
        QStringList w;
        if (!splitWords(text, &w) || w.isEmpty())
            return refuse(u"a step uses shell syntax this runner does not handle: "_s + text);
        Step step;
        if (w.first() == u"rm") {
            for (const QString &f : w.mid(1))
                if (!f.startsWith(u'-'))
                    step.remove << f;
            step.name = u"rm"_s;
        } else {
            step.command = text;
            step.name = stepName(text);
        }
        plan.steps.append(step);
        words.append(w);
    }

    qsizetype frontEnd = -1;
    for (qsizetype i = 0; i < plan.steps.size(); ++i) {
        if (plan.steps.at(i).name != u"cudafe++")
            continue;
        if (frontEnd >= 0)
            return refuse(u"more than one cudafe++ step"_s);
        frontEnd = i;
    }
    if (frontEnd < 0)
        return refuse(u"no cudafe++ step (no host code to compile)"_s);
    const QStringList &fe = words.at(frontEnd);
    plan.moduleIdFile = optionValue(fe, u"--module_id_file_name"_s);
    const QString hostOutput = optionValue(fe, u"--gen_c_file_name"_s);
    if (!fe.contains(u"--gen_module_id_file"_s) || plan.moduleIdFile.isEmpty() || hostOutput.isEmpty())
        return refuse(u"cudafe++ does not generate the module id itself"_s);

    qsizetype fatbin = -1;
    for (qsizetype i = frontEnd + 1; i < plan.steps.size() && fatbin < 0; ++i)
        if (plan.steps.at(i).name == u"fatbinary")
            fatbin = i;
    if (fatbin < 0 || fatbin + 1 >= plan.steps.size())
        return refuse(u"no fatbinary step followed by the host compile"_s);

    static const QSet<QString> deviceTools{u"cicc"_s, u"ptxas"_s, u"fatbinary"_s, u"nvlink"_s};
    for (qsizetype i = 0; i < frontEnd; ++i)
        if (deviceTools.contains(plan.steps.at(i).name))
            return refuse(u"device steps before cudafe++"_s);
    int ciccs = 0;
    for (qsizetype i = frontEnd + 1; i <= fatbin; ++i) {
        if (plan.steps.at(i).command.contains(hostOutput))
            return refuse(u"a device step reads what cudafe++ writes"_s);
        if (plan.steps.at(i).name == u"cicc") {
            ++ciccs;
            if (optionValue(words.at(i), u"--module_id_file_name"_s) != plan.moduleIdFile)
                return refuse(u"cicc reads another module id file"_s);
        }
    }
    if (ciccs == 0)
        return refuse(u"no cicc step between cudafe++ and fatbinary"_s);

    // cudafe++ now reads the id instead of making one, exactly as every cicc step already does.
    static const QRegularExpression gen(u"(^|\\s)--gen_module_id_file(?=\\s|$)"_s);
    plan.steps[frontEnd].command.replace(gen, QString());
    for (qsizetype i = 0; i < plan.steps.size(); ++i)
        plan.steps[i].track = i <= frontEnd ? Track::Host : i <= fatbin ? Track::Device : Track::Tail;
    for (qsizetype i = fatbin + 1; i < plan.steps.size() && plan.hostCompile < 0; ++i)
        if (words.at(i).contains(u"-c"_s) && words.at(i).contains(hostOutput))
            plan.hostCompile = i;
    plan.hostSource = hostOutput;
    plan.sourceName = optionValue(fe, u"--orig_src_file_name"_s);
    return plan;
}

} // namespace kforge
