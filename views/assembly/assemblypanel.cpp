#include "views/assembly/assemblypanel.h"

#include "core/eval/kernelname.h"
#include "core/sourcelevel/instructionmix.h"
#include "views/assembly/ptxmodel.h"
#include "views/assembly/sassmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSet>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QTableView *makeView(QAbstractItemModel *model, int stretchColumn, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 2);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    return view;
}

QString bytes(qint64 n)
{
    return n >= 1024 ? AssemblyPanel::tr("%1 KiB").arg(double(n) / 1024.0, 0, 'f', 1) : AssemblyPanel::tr("%1 B").arg(n);
}

} // namespace

AssemblyPanel::AssemblyPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_kernels = new QComboBox(this);
    m_kernels->setObjectName(u"assemblyKernel"_s);
    m_kernels->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kernels->setMinimumContentsLength(20);
    m_resources = new QLabel(this);
    m_resources->setObjectName(u"assemblyResources"_s);
    m_resources->setWordWrap(true);
    m_mix = new QLabel(this);
    m_mix->setObjectName(u"assemblyMix"_s);
    m_mix->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(u"assemblyStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sass = new SassModel(this);
    m_ptx = new PtxModel(this);
    m_tabs = new QTabWidget(this);
    m_sassView = makeView(m_sass, SassModel::InstructionColumn, m_tabs);
    m_sassView->setObjectName(u"sassView"_s);
    m_ptxView = makeView(m_ptx, PtxModel::TextColumn, m_tabs);
    m_ptxView->setObjectName(u"ptxView"_s);
    // The reference's SASS beside the candidate's, on request.
    m_showReference = new QCheckBox(tr("Beside the reference"), this);
    m_showReference->setObjectName(u"assemblyShowReference"_s);
    m_showReference->setToolTip(tr("Show the task reference's SASS next to this variant's, to compare instruction by "
                                   "instruction"));
    m_referencePane = new QWidget(this);
    m_referencePane->setObjectName(u"assemblyReferencePane"_s);
    auto *refLayout = new QVBoxLayout(m_referencePane);
    refLayout->setContentsMargins(0, 0, 0, 0);
    m_refKernels = new QComboBox(m_referencePane);
    m_refKernels->setObjectName(u"assemblyReferenceKernel"_s);
    m_refKernels->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_refKernels->setMinimumContentsLength(16);
    m_refStatus = new QLabel(m_referencePane);
    m_refStatus->setObjectName(u"assemblyReferenceStatus"_s);
    m_refStatus->setWordWrap(true);
    m_refSass = new SassModel(this);
    m_refView = makeView(m_refSass, SassModel::InstructionColumn, m_referencePane);
    m_refView->setObjectName(u"referenceSassView"_s);
    refLayout->addWidget(m_refKernels);
    refLayout->addWidget(m_refStatus);
    refLayout->addWidget(m_refView, 1);
    auto *sassSplit = new QSplitter(Qt::Horizontal, m_tabs);
    sassSplit->addWidget(m_sassView);
    sassSplit->addWidget(m_referencePane);
    m_referencePane->setVisible(false);
    m_tabs->addTab(sassSplit, tr("SASS"));
    m_tabs->addTab(m_ptxView, tr("PTX"));
    layout->addWidget(m_kernels);
    layout->addWidget(m_showReference);
    layout->addWidget(m_resources);
    layout->addWidget(m_mix);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);

    connect(m_kernels, &QComboBox::currentIndexChanged, this, &AssemblyPanel::showKernel);
    connect(m_refKernels, &QComboBox::currentIndexChanged, this, &AssemblyPanel::showReferenceKernel);
    connect(m_showReference, &QCheckBox::toggled, this, [this](bool on) {
        m_referencePane->setVisible(on);
        if (on && !m_referenceAsked) {
            m_referenceAsked = true;
            setReferencePending(tr("Compiling the reference's SASS…"));
            Q_EMIT referenceRequested();
        }
    });
    for (QTableView *view : {m_sassView, m_ptxView}) {
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, view](const QModelIndex &current) { onRowActivated(view, current.row()); });
    }
    setAssembly(Assembly{});
}

void AssemblyPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    Q_EMIT shown();
}

void AssemblyPanel::setPending(const QString &what)
{
    m_pending = what;
    updateStatus();
}

void AssemblyPanel::setAssembly(const Assembly &assembly)
{
    const QString keep = currentKernel();
    m_assembly = assembly;
    if (assembly.ptxDone && assembly.sassDone)
        m_pending.clear();
    // Kernels: the SASS functions (what runs), else the PTX entries.
    QStringList names;
    for (const SassFunction &f : m_assembly.sass.functions)
        names.append(f.name);
    for (const PtxFunction &f : m_assembly.ptx.functions) {
        if (f.entry && !names.contains(f.name))
            names.append(f.name);
    }
    const QSignalBlocker block(m_kernels);
    m_kernels->clear();
    for (const QString &n : names)
        m_kernels->addItem(kernelDisplayName(n), n);
    const int keepIndex = m_kernels->findData(keep);
    m_kernels->setCurrentIndex(keepIndex >= 0 ? keepIndex : 0);
    m_kernels->setEnabled(names.size() > 1);
    showKernel();
}

void AssemblyPanel::setSourceProfile(const SourceProfile &profile)
{
    m_profile = profile;
    showKernel();
}

void AssemblyPanel::setReferenceAssembly(const Assembly &assembly)
{
    m_reference = assembly;
    m_referenceAsked = true;
    const QString keep = currentReferenceKernel();
    const QSignalBlocker block(m_refKernels);
    m_refKernels->clear();
    for (const SassFunction &f : m_reference.sass.functions)
        m_refKernels->addItem(kernelDisplayName(f.name), f.name);
    // The candidate's kernel when the reference has one of that name, else the one shown before.
    int index = m_refKernels->findData(currentKernel());
    if (index < 0)
        index = m_refKernels->findData(keep);
    m_refKernels->setCurrentIndex(index >= 0 ? index : 0);
    m_refKernels->setEnabled(m_refKernels->count() > 1);
    QString status;
    if (!m_reference.sassError.isEmpty())
        status = m_reference.sassError;
    else if (m_reference.sassDone && m_reference.sass.functions.isEmpty())
        status = tr("The reference has no SASS of its own (it may only call libraries such as cuBLAS).");
    else if (!m_reference.sassDone)
        status = tr("Compiling the reference's SASS…");
    else if (!m_reference.sassTool.isEmpty())
        status = tr("Reference SASS from %1.").arg(m_reference.sassTool);
    m_refStatus->setText(status);
    showReferenceKernel();
}

void AssemblyPanel::setReferencePending(const QString &what)
{
    m_refStatus->setText(what);
}

void AssemblyPanel::resetReference()
{
    setReferenceAssembly(Assembly{});
    m_refStatus->clear();
    m_referenceAsked = false;
    if (referenceShown()) {
        m_referenceAsked = true;
        setReferencePending(tr("Compiling the reference's SASS…"));
        Q_EMIT referenceRequested();
    }
}

bool AssemblyPanel::referenceShown() const
{
    return m_showReference->isChecked();
}

void AssemblyPanel::setReferenceShown(bool shown)
{
    m_showReference->setChecked(shown);
}

QString AssemblyPanel::currentReferenceKernel() const
{
    return m_refKernels->currentData().toString();
}

QString AssemblyPanel::referenceStatusText() const
{
    return m_refStatus->text();
}

void AssemblyPanel::showReferenceKernel()
{
    const QString name = currentReferenceKernel();
    const SassFunction *f = m_reference.sass.function(name);
    m_refSass->setFunction(f ? *f : SassFunction{}, m_reference.fileName);
    // The reference's samples, when the pass sampled it too (source_profile_reference).
    SourceProfile::Kernel samples;
    for (const SourceProfile::Kernel &k : m_profile.kernels) {
        if (k.side == u"reference" && k.name == name)
            samples = k;
    }
    m_refSass->setSamples(samples);
}

QString AssemblyPanel::currentKernel() const
{
    return m_kernels->currentData().toString();
}

void AssemblyPanel::setCurrentKernel(const QString &mangledName)
{
    if (const int i = m_kernels->findData(mangledName); i >= 0)
        m_kernels->setCurrentIndex(i);
}

QString AssemblyPanel::statusText() const
{
    return m_status->text();
}

void AssemblyPanel::showKernel()
{
    const QString name = currentKernel();
    const SassFunction *f = m_assembly.sass.function(name);
    m_sass->setFunction(f ? *f : SassFunction{}, m_assembly.fileName);
    SourceProfile::Kernel samples;
    for (const SourceProfile::Kernel &k : m_profile.kernels) {
        if (k.side == u"candidate" && k.name == name)
            samples = k;
    }
    m_sass->setSamples(samples);
    m_ptx->setListing(m_assembly.ptx, name, m_assembly.fileName);

    const KernelResources *res = nullptr;
    for (const KernelResources &r : m_assembly.resources) {
        if (r.mangledName == name)
            res = &r;
    }
    if (res) {
        QString text = tr("%1 registers, %2 shared memory, %3 stack")
                           .arg(res->registers)
                           .arg(bytes(res->sharedBytes), bytes(res->stackBytes));
        text += res->spills()
                    ? tr("; spills: %1 stored, %2 loaded").arg(bytes(res->spillStoreBytes), bytes(res->spillLoadBytes))
                    : tr("; no spills");
        m_resources->setText(text);
    } else {
        m_resources->setText(name.isEmpty() ? QString() : tr("No resource usage from ptxas for this kernel."));
    }
    m_mix->setText(f ? tr("Instruction mix: %1").arg(InstructionMix::of(*f).summary()) : QString());
    m_resources->setVisible(!m_resources->text().isEmpty());
    m_mix->setVisible(!m_mix->text().isEmpty());
    highlightSourceLine(m_sass->highlightLine());
    // The reference follows to the kernel of the same name, when it has one.
    if (const int i = m_refKernels->findData(name); i >= 0 && i != m_refKernels->currentIndex())
        m_refKernels->setCurrentIndex(i);
    else
        showReferenceKernel();
    updateStatus();
}

void AssemblyPanel::updateStatus()
{
    QStringList lines;
    if (!m_pending.isEmpty())
        lines.append(m_pending);
    else if (!m_assembly.ptxDone && !m_assembly.sassDone)
        lines.append(tr("Select a variant or an editor tab to see its PTX and SASS."));
    if (!m_assembly.sassTool.isEmpty() && m_assembly.sassError.isEmpty())
        lines.append(tr("SASS from %1.").arg(m_assembly.sassTool));
    if (!m_assembly.sassError.isEmpty())
        lines.append(m_assembly.sassError);
    if (!m_assembly.ptxError.isEmpty())
        lines.append(m_assembly.ptxError);
    if (m_profile.status != SourceProfile::Status::Absent && !m_profile.problem().isEmpty())
        lines.append(m_profile.problem());
    else if (!m_profile.executionCountsProblem().isEmpty()) // samples, but no Executed column
        lines.append(m_profile.executionCountsProblem());
    m_status->setText(lines.join(u'\n'));
    m_status->setVisible(!lines.isEmpty());
}

void AssemblyPanel::highlightSourceLine(int line)
{
    m_sass->setHighlightLine(line);
    m_ptx->setHighlightLine(line);
    m_following = true;
    // SASS: to the line's instruction with most samples (where the time went); PTX: to its first.
    const QList<int> ptxRows = m_ptx->rowsOfLine(line);
    for (auto [view, row] : {std::pair{m_sassView, m_sass->hottestRowOfLine(line)},
                             std::pair{m_ptxView, ptxRows.isEmpty() ? -1 : ptxRows.first()}}) {
        if (row >= 0)
            view->scrollTo(view->model()->index(row, 0), QAbstractItemView::PositionAtCenter);
    }
    m_following = false;
}

void AssemblyPanel::onRowActivated(QTableView *view, int row)
{
    if (m_following)
        return;
    const int line = view == m_sassView ? m_sass->lineOfRow(row) : m_ptx->lineOfRow(row);
    if (line <= 0)
        return;
    highlightSourceLine(line);
    Q_EMIT sourceLineSelected(line);
}

} // namespace kforge
