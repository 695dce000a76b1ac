#include "core/collection/torchextension.h"

#include <QCryptographicHash>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// The body of `class Model`: from its line to the next line that starts at column 0 (not blank, not a comment).
QString modelClassBody(const QString &problem)
{
    static const QRegularExpression start(u"^class\\s+Model\\s*[(:]"_s, QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = start.match(problem);
    if (!m.hasMatch())
        return {};
    const QStringList lines = problem.mid(m.capturedEnd()).split(u'\n');
    QStringList body;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString &l = lines.at(i);
        if (!l.isEmpty() && !l.at(0).isSpace() && !l.startsWith(u'#'))
            break;
        body << l;
    }
    return body.join(u'\n');
}

// forward(self, ..., fn=module_fn): Sakana's functional form.
bool isFunctional(const QString &modelBody)
{
    static const QRegularExpression fn(u"\\bdef\\s+forward\\s*\\([^)]*\\bfn\\s*="_s);
    return fn.match(modelBody).hasMatch();
}

// A Model that keeps nothing on self: its forward sees only the inputs.
bool keepsState(const QString &modelBody)
{
    static const QRegularExpression state(u"\\bself\\.\\w+\\s*(:[^=\\n]*)?=(?!=)|\\bregister_(buffer|parameter|module)\\b"_s);
    return state.match(modelBody).hasMatch();
}

// The .cu as a Python string literal: raw and readable where it can be, else base64.
QString pythonLiteral(const QString &source, bool *base64)
{
    *base64 = source.contains(u"'''"_s) || source.endsWith(u'\\');
    if (*base64)
        return u"__import__('base64').b64decode('%1').decode('utf-8')"_s.arg(
            QString::fromLatin1(source.toUtf8().toBase64()));
    return u"r'''\n"_s + source + u"'''"_s; // the .cu's lines start lines here too
}

} // namespace

bool TorchExtension::isExtension(const QString &source)
{
    static const QRegularExpression module(u"\\bPYBIND11_MODULE\\s*\\("_s);
    static const QRegularExpression forward(u"\\.def\\s*\\(\\s*\"forward\""_s);
    return module.match(source).hasMatch() && forward.match(source).hasMatch();
}

QString TorchExtension::wrap(const QString &problemSource, const QString &extensionSource, const QString &origin,
                             QString *why)
{
    const QString body = modelClassBody(problemSource);
    if (body.isEmpty()) {
        *why = tr("a torch extension (.cu with PYBIND11_MODULE), but its problem defines no class Model");
        return {};
    }
    const bool functional = isFunctional(body);
    if (!functional && keepsState(body)) {
        *why = tr("a torch extension (.cu with PYBIND11_MODULE binding forward) for a problem whose Model keeps state "
                  "(parameters or attributes set in __init__): which of them its forward takes, and in which order, "
                  "cannot be told without guessing. Give the problem in the functional form (forward(self, ..., "
                  "fn=module_fn), Sakana's PyTorch_Code_Functional) as the reference, or a ModelNew");
        return {};
    }
    bool base64 = false;
    const QString literal = pythonLiteral(extensionSource, &base64);
    const QString name = QString::fromLatin1(
        QCryptographicHash::hash(extensionSource.toUtf8(), QCryptographicHash::Sha256).toHex().left(16));
    QString out;
    out += u"# kforge: %1 is a torch extension (a .cu binding forward with PYBIND11_MODULE), judged as this ModelNew:\n"_s
               .arg(origin);
    out += functional ? u"# the problem's Model with module_fn replaced by the extension's forward (built with "
                        "load_inline).\n"_s
                      : u"# the problem's Model (it keeps no state) computing with the extension's forward (built with "
                        "load_inline).\n"_s;
    out += u"# ---- the problem, as published\n"_s;
    out += problemSource;
    if (!problemSource.endsWith(u'\n'))
        out += u'\n';
    out += u"\n# ---- the candidate: the extension, as published\n"
           "import torch as _kforge_torch\n"
           "from torch.utils.cpp_extension import load_inline as _kforge_load_inline\n\n"
           "_kforge_cuda_source = "_s
           + literal
           + u"\n\n_kforge_extension = _kforge_load_inline(name='kforge_ext_%1', cpp_sources='', "
             "cuda_sources=_kforge_cuda_source, verbose=False)\n\n\n"
             "class ModelNew(Model):\n"
             "    def forward(self, *args):\n"_s.arg(name);
    out += functional ? u"        return super().forward(*args, fn=_kforge_extension.forward)\n"_s
                      : u"        return _kforge_extension.forward(*args)\n"_s;
    return out;
}

void TorchExtension::wrapPairs(Collection &c)
{
    for (qsizetype i = 0; i < c.pairs.size();) {
        CollectionPair &p = c.pairs[i];
        if (p.kind != CandidateKind::TorchExtension) {
            ++i;
            continue;
        }
        QString why;
        const QString module = wrap(p.problemSource, p.candidateSource, p.candidateOrigin, &why);
        if (module.isEmpty()) {
            c.issues.append({p.candidateOrigin, why, true});
            c.pairs.removeAt(i);
            continue;
        }
        p.candidateSource = module;
        p.kind = CandidateKind::ModelNew;
        const qsizetype dot = p.candidateName.lastIndexOf(u'.');
        p.candidateName = (dot > 0 ? p.candidateName.left(dot) : p.candidateName) + u".py"_s;
        p.notes << tr("a torch extension (.cu with PYBIND11_MODULE): judged as a ModelNew that builds it with "
                      "load_inline and calls its forward");
        ++i;
    }
}

} // namespace kforge
