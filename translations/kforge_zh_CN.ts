<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CudaToolkit</name>
    <message>
        <location filename="../core/compile/cudatoolkit.cpp" line="+78" />
        <source>No CUDA compiler (nvcc) was found. Compiling kernels needs a CUDA toolkit on this machine: install one, set CUDA_HOME, or set the path to nvcc in Settings. Without it, configure a GPU worker with a toolkit (Settings → Workers).</source>
        <translation>未找到 CUDA 编译器（nvcc）。在本机编译内核需要 CUDA 工具包：请安装工具包、设置 CUDA_HOME，或在“设置”中指定 nvcc 的路径。若没有工具包，请配置一个带工具包的 GPU 工作进程（设置 → 工作进程）。</translation>
    </message>
</context>
<context>
    <name>EvalResult</name>
    <message>
        <location filename="../core/eval/evalresult.cpp" line="+51" />
        <source>not measured: the metrics pass was turned off</source>
        <translation>未测量：指标采集已关闭</translation>
    </message>
    <message>
        <location line="+2" />
        <source>not measured: the metrics pass runs only for the session's best variants (Profile or re-run it to measure)</source>
        <translation>未测量：指标采集只为会话中最好的变体运行（可通过性能分析或重新运行来测量）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>not measured (%1)</source>
        <translation>未测量（%1）</translation>
    </message>
    <message>
        <location line="+8" />
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location line="+2" />
        <source>trace</source>
        <translation>跟踪</translation>
    </message>
    <message>
        <location line="+2" />
        <source>metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+2" />
        <source>source profile</source>
        <translation>源码级性能分析</translation>
    </message>
    <message>
        <location line="+4" />
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location line="+22" />
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location line="+1" />
        <source>incorrect</source>
        <translation>不正确</translation>
    </message>
    <message>
        <location line="+1" />
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <location line="+1" />
        <source>CUDA error</source>
        <translation>CUDA 错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+1" />
        <source>load error</source>
        <translation>加载错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+133" />
        <source>The worker sent an unknown verdict '%1'. %2</source>
        <translation>工作进程发来未知的判定结果“%1”。%2</translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <location filename="../core/task/task.cpp" line="+47" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1: field '%2': %3</source>
        <translation>%1：字段“%2”：%3</translation>
    </message>
    <message>
        <location line="+15" />
        <source>not a task folder (it should hold task.json and reference.cu)</source>
        <translation>不是任务文件夹（应包含 task.json 和 reference.cu）</translation>
    </message>
    <message>
        <location line="+29" />
        <location line="+18" />
        <location line="+34" />
        <location line="+18" />
        <location line="+8" />
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location line="-54" />
        <location line="+70" />
        <source>%1 is missing</source>
        <translation>缺少 %1</translation>
    </message>
    <message>
        <location line="-47" />
        <source>invalid JSON at offset %1: %2</source>
        <translation>偏移 %1 处的 JSON 无效：%2</translation>
    </message>
    <message>
        <location line="+17" />
        <source>expected an array</source>
        <translation>应为数组</translation>
    </message>
    <message>
        <location line="+2" />
        <source>a task needs at least one output</source>
        <translation>任务至少需要一个输出</translation>
    </message>
</context>
<context>
    <name>kforge-cli</name>
    <message>
        <location filename="../app/cli/main.cpp" line="+40" />
        <source>Usage: kforge-cli &lt;command&gt; [options]</source>
        <translation>用法：kforge-cli &lt;命令&gt; [选项]</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Run 'kforge-cli &lt;command&gt; --help' for a command's options.</source>
        <translation>运行“kforge-cli &lt;命令&gt; --help”查看某个命令的选项。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>kforge-cli: unknown command '%1'; see kforge-cli --help</source>
        <translation>kforge-cli：未知命令“%1”；请参阅 kforge-cli --help</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="+380" />
        <source>Stream one answer from an LLM endpoint (checks the endpoint)</source>
        <translation>从 LLM 端点流式获取一个回答（用于检查端点）</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_eval.cpp" line="+553" />
        <source>Compile, verify and time a candidate kernel against its task's reference</source>
        <translation>编译候选内核，并对照任务的参考实现进行验证和计时</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_export.cpp" line="+251" />
        <source>Export a variant as a CMake project, a PyTorch extension, or into a project</source>
        <translation>将变体导出为 CMake 项目、PyTorch 扩展，或导出到现有项目中</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_dataset.cpp" line="+107" />
        <source>Write the model answers of sessions as JSON lines for training</source>
        <translation>将会话中的模型回答写为 JSON Lines，用于训练</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+660" />
        <source>Run contrastive optimization rounds headless and keep a session</source>
        <translation>以无界面方式运行对比优化轮次，并保存会话</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_report.cpp" line="+119" />
        <source>Write an HTML (and Markdown) report of a session</source>
        <translation>生成会话的 HTML（及 Markdown）报告</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_review.cpp" line="+168" />
        <source>List the variants held for review, and accept or reject them</source>
        <translation>列出待审核的变体，并接受或拒绝它们</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_import.cpp" line="+321" />
        <source>Import PyTorch problems (KernelBench format) as task folders</source>
        <translation>将 PyTorch 问题（KernelBench 格式）导入为任务文件夹</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_verify.cpp" line="+394" />
        <source>Re-measure a collection of kernels (a paper's release, a KernelBench run)</source>
        <translation>重新测量一个内核集合（论文发布的内核、KernelBench 运行结果）</translation>
    </message>
</context>
<context>
    <name>kforge::AssemblyFetcher</name>
    <message>
        <location filename="../core/sourcelevel/assemblyfetcher.cpp" line="+115" />
        <source>nvcc could not produce PTX: %1</source>
        <translation>nvcc 无法生成 PTX：%1</translation>
    </message>
    <message>
        <location line="+15" />
        <source>The PTX has no line table, so lines cannot be matched: compile with -lineinfo.</source>
        <translation>PTX 没有行号表，无法对应源代码行：请使用 -lineinfo 编译。</translation>
    </message>
    <message>
        <location line="+11" />
        <source>No SASS: %1</source>
        <translation>没有 SASS：%1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 (local)</source>
        <translation>%1（本机）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>No SASS: the kernel does not compile: %1</source>
        <translation>没有 SASS：内核无法编译：%1</translation>
    </message>
    <message>
        <location line="+13" />
        <source>No SASS: this machine's CUDA toolkit (%1) has neither nvdisasm nor cuobjdump, and no worker is running to disassemble on its GPU host. Start a worker (Settings → Workers) or install the toolkit's nvdisasm here.</source>
        <translation>没有 SASS：本机的 CUDA 工具包（%1）既没有 nvdisasm 也没有 cuobjdump，且没有正在运行的工作进程可在其 GPU 主机上反汇编。请启动一个工作进程（设置 → 工作进程），或在本机安装工具包的 nvdisasm。</translation>
    </message>
    <message>
        <location line="+3" />
        <location line="+4" />
        <source>no nvcc found</source>
        <translation>未找到 nvcc</translation>
    </message>
    <message>
        <location line="-3" />
        <source>No SASS: this machine's CUDA toolkit (%1) has neither nvdisasm nor cuobjdump, and no worker is configured to disassemble on a GPU host. Add a worker (Settings → Workers) or install the toolkit's nvdisasm here (package cuda-nvdisasm).</source>
        <translation>没有 SASS：本机的 CUDA 工具包（%1）既没有 nvdisasm 也没有 cuobjdump，且未配置可在 GPU 主机上反汇编的工作进程。请添加一个工作进程（设置 → 工作进程），或在本机安装工具包的 nvdisasm（软件包 cuda-nvdisasm）。</translation>
    </message>
    <message>
        <location line="+33" />
        <source>No SASS: the worker host has no disassembler (%1). Install the CUDA toolkit's nvdisasm or cuobjdump there, or put its bin folder on the worker's PATH.</source>
        <translation>没有 SASS：工作进程主机上没有反汇编器（%1）。请在该主机上安装 CUDA 工具包的 nvdisasm 或 cuobjdump，或把其 bin 目录加入工作进程的 PATH。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>No SASS: worker %1 does not know the disassemble request (%2); update kforge-worker on its host.</source>
        <translation>没有 SASS：工作进程 %1 不认识 disassemble 请求（%2）；请更新其主机上的 kforge-worker。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>No SASS: worker %1 could not disassemble the kernel: %2</source>
        <translation>没有 SASS：工作进程 %1 无法反汇编该内核：%2</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1 on worker %2</source>
        <translation>工作进程 %2 上的 %1</translation>
    </message>
    <message>
        <location line="+15" />
        <source>The disassembler (%1) printed no functions.</source>
        <translation>反汇编器（%1）没有输出任何函数。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The SASS from %1 has no line information (cuobjdump prints none; nvdisasm --print-line-info on a -lineinfo build does), so instructions cannot be matched to source lines.</source>
        <translation>来自 %1 的 SASS 没有行号信息（cuobjdump 不输出行号；对 -lineinfo 构建使用 nvdisasm --print-line-info 才有），因此无法把指令对应到源代码行。</translation>
    </message>
</context>
<context>
    <name>kforge::AssemblyPanel</name>
    <message>
        <location filename="../views/assembly/assemblypanel.cpp" line="+43" />
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <location line="+31" />
        <source>Beside the reference</source>
        <translation>与参考实现并排</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Show the task reference's SASS next to this variant's, to compare instruction by instruction</source>
        <translation>在该变体的 SASS 旁显示任务参考实现的 SASS，以便逐条指令对比</translation>
    </message>
    <message>
        <location line="+23" />
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <location line="+1" />
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <location line="+14" />
        <location line="+74" />
        <location line="+19" />
        <source>Compiling the reference's SASS…</source>
        <translation>正在编译参考实现的 SASS…</translation>
    </message>
    <message>
        <location line="-21" />
        <source>The reference has no SASS of its own (it may only call libraries such as cuBLAS).</source>
        <translation>参考实现没有自己的 SASS（它可能只调用 cuBLAS 等库）。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Reference SASS from %1.</source>
        <translation>参考实现的 SASS 来自 %1。</translation>
    </message>
    <message>
        <location line="+91" />
        <source>%1 registers, %2 shared memory, %3 stack</source>
        <translation>%1 个寄存器，%2 共享内存，%3 栈</translation>
    </message>
    <message>
        <location line="+4" />
        <source>; spills: %1 stored, %2 loaded</source>
        <translation>；溢出：存储 %1，加载 %2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>; no spills</source>
        <translation>；无溢出</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No resource usage from ptxas for this kernel.</source>
        <translation>ptxas 没有给出该内核的资源使用情况。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Instruction mix: %1</source>
        <translation>指令构成：%1</translation>
    </message>
    <message>
        <location line="+18" />
        <source>Select a variant or an editor tab to see its PTX and SASS.</source>
        <translation>选择一个变体或编辑器标签页以查看其 PTX 和 SASS。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>SASS from %1.</source>
        <translation>SASS 来自 %1。</translation>
    </message>
</context>
<context>
    <name>kforge::Budget</name>
    <message numerus="yes">
        <location filename="../core/optimizer/roundsettings.cpp" line="+10" />
        <source>%n request(s) of the budget used</source>
        <translation>
            <numerusform>已使用预算中的 %n 次请求</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 of %2 budgeted tokens used</source>
        <translation>已使用预算 %2 个令牌中的 %1 个</translation>
    </message>
    <message>
        <location line="+2" />
        <source>$%1 of the $%2 budget spent</source>
        <translation>已花费预算 $%2 中的 $%1</translation>
    </message>
</context>
<context>
    <name>kforge::CMakeExporter</name>
    <message>
        <location filename="../core/export/cmakeexporter.cpp" line="+129" />
        <source>  # already there</source>
        <translation>  # 已存在</translation>
    </message>
    <message>
        <location line="+112" />
        <source>the kernel ABI header is missing from this build</source>
        <translation>此构建中缺少内核 ABI 头文件</translation>
    </message>
</context>
<context>
    <name>kforge::ChartBase</name>
    <message>
        <location filename="../views/charts/chartbase.cpp" line="+241" />
        <source>Unknown image format “%1”: use .png, .svg or .pdf.</source>
        <translation>未知的图像格式“%1”：请使用 .png、.svg 或 .pdf。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>kforge::ChartsPanel</name>
    <message>
        <location filename="../views/charts/chartspanel.cpp" line="+23" />
        <source>Speedup by Round</source>
        <translation>各轮次加速比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kernel Times</source>
        <translation>内核耗时</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Roofline</source>
        <translation>屋顶线模型</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Save the shown chart as an image or a PDF</source>
        <translation>将当前图表保存为图像或 PDF</translation>
    </message>
    <message>
        <location line="+3" />
        <source>PNG Image…</source>
        <translation>PNG 图像…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>SVG Drawing…</source>
        <translation>SVG 矢量图…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>PDF Document…</source>
        <translation>PDF 文档…</translation>
    </message>
    <message>
        <location line="+39" />
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>SVG drawings (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
</context>
<context>
    <name>kforge::CollectionActions</name>
    <message>
        <location filename="../app/gui/collectionactions.cpp" line="+67" />
        <source>No worker is set up: the pairs would get no verdict.</source>
        <translation>尚未设置工作进程：这些配对将得不到判定。</translation>
    </message>
    <message numerus="yes">
        <location line="+1" />
        <source>%n worker(s): %1</source>
        <translation>
            <numerusform>%n 个工作进程：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+30" />
        <source>Verifying the collection %1 into %2</source>
        <translation>正在验证集合 %1，输出到 %2</translation>
    </message>
    <message>
        <location line="+22" />
        <location line="+2" />
        <location line="+17" />
        <source>Cannot verify the collection: %1</source>
        <translation>无法验证该集合：%1</translation>
    </message>
    <message>
        <location line="-10" />
        <source>No python3 with torch (%1): problems not imported before cannot be imported (install torch, Debian: python3-torch).</source>
        <translation>没有带 torch 的 python3（%1）：之前未导入的问题无法导入（请安装 torch，Debian：python3-torch）。</translation>
    </message>
    <message>
        <location line="+16" />
        <source>Every selected pair is in %1 already: nothing to run.</source>
        <translation>所选配对都已在 %1 中：无需运行。</translation>
    </message>
    <message>
        <location line="+14" />
        <source>Verified collection: %1 and %2</source>
        <translation>集合已验证：%1 和 %2</translation>
    </message>
    <message>
        <location line="+23" />
        <source>Opening %1 as a session…</source>
        <translation>正在将 %1 作为会话打开…</translation>
    </message>
</context>
<context>
    <name>kforge::CollectionImporter</name>
    <message>
        <location filename="../core/collection/collectionimporter.cpp" line="+38" />
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+69" />
        <source>degenerate: the output does not depend on the inputs</source>
        <translation>退化：输出不依赖于输入</translation>
    </message>
    <message>
        <location line="+2" />
        <source>FLOPs unknown: no compute floor</source>
        <translation>FLOPs 未知：没有计算下限</translation>
    </message>
</context>
<context>
    <name>kforge::CollectionPanel</name>
    <message>
        <location filename="../views/collection/collectionpanel.cpp" line="+78" />
        <source>No collection verified yet. Verify a collection of kernels (a folder of problems and candidates, a released-kernels JSON or a KernelBench run folder): every pair re-measured by KForge's judge, with every claim marked as holding or not and why.</source>
        <translation>尚未验证任何集合。验证一个内核集合（包含问题和候选的文件夹、已发布内核的 JSON 或 KernelBench 运行文件夹）：每个配对都由 KForge 的评判重新测量，并标明每个声称是否成立及其原因。</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Stop the verification: what is measured stays in results.jsonl; verifying the same output folder again continues it</source>
        <translation>停止验证：已测量的结果保留在 results.jsonl 中；再次验证同一输出文件夹即可继续</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Open Report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Open report.html in the browser</source>
        <translation>在浏览器中打开 report.html</translation>
    </message>
    <message>
        <location line="+15" />
        <source>Double-click a pair to open it as a session: the problem as the reference, the candidate as a variant with its measured result</source>
        <translation>双击配对即可将其作为会话打开：问题作为参考实现，候选作为带有测量结果的变体</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Not verified</source>
        <translation>未验证</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+62" />
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+11" />
        <source>%1: no verdict: %2</source>
        <translation>%1：没有判定：%2</translation>
    </message>
    <message>
        <location line="+78" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Importing the problems (%1 done)…</source>
        <translation>正在导入问题（已完成 %1 个）…</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Imported; waiting for the workers…</source>
        <translation>已导入；正在等待工作进程…</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Done: nothing left to measure.</source>
        <translation>完成：没有需要测量的内容。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 of %2 pairs</source>
        <translation>%1 / %2 个配对</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 elapsed</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, ETA %1</source>
        <translation>，预计剩余 %1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Cancelling: waiting for what is in flight…</source>
        <translation>正在取消：等待进行中的评估结束…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Cancelled after %1; verify the same output folder again to continue.</source>
        <translation>已在 %1 后取消；再次验证同一输出文件夹即可继续。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Done in %1.</source>
        <translation>用时 %1 完成。</translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>%n pair(s) without a verdict (no worker, no GPU).</source>
        <translation>
            <numerusform>%n 个配对没有判定（没有工作进程或 GPU）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+20" />
        <source>&lt;b&gt;%1&lt;/b&gt;: correct %2 / %3 · mean %4 · median %5 · max %6 · faster than the reference %7 / %3 (%8%)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：正确 %2 / %3 · 平均 %4 · 中位数 %5 · 最大 %6 · 快于参考实现 %7 / %3（%8%）</translation>
    </message>
    <message>
        <location line="+11" />
        <source>All pairs</source>
        <translation>全部配对</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Without flags</source>
        <translation>无标记的配对</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Claims that hold within their noise: %1 of %2 · flagged %3 · not imported %4 · not run %5 · %6 pairs</source>
        <translation>在噪声范围内成立的声称：%1 / %2 · 被标记 %3 · 未导入 %4 · 未运行 %5 · 共 %6 个配对</translation>
    </message>
</context>
<context>
    <name>kforge::CollectionReader</name>
    <message>
        <location filename="../core/collection/collectionreader.cpp" line="+30" />
        <source>no such file or folder: %1</source>
        <translation>没有这个文件或文件夹：%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>%1 is a file but not a .json collection; a collection is a released-kernels .json, a KernelBench run folder or a folder of problems and candidates</source>
        <translation>%1 是一个文件，但不是 .json 集合；集合可以是发布内核的 .json、KernelBench 运行文件夹，或者问题与候选的文件夹</translation>
    </message>
    <message>
        <location line="+31" />
        <source>no folder %1: a folder collection is a folder of problems and one of candidates (DIR with problems/ and candidates/, or --problems and --candidates)</source>
        <translation>没有文件夹 %1：文件夹形式的集合由一个问题文件夹和一个候选文件夹组成（DIR 下的 problems/ 和 candidates/，或 --problems 和 --candidates）</translation>
    </message>
    <message>
        <location line="+13" />
        <source>a KernelBench run folder holds the generated kernels only: name the problems with --problems (a KernelBench checkout, or its KernelBench/ folder with level1/, level2/ ...)</source>
        <translation>KernelBench 运行文件夹只包含生成的内核：请用 --problems 指定问题（KernelBench 的检出目录，或其包含 level1/、level2/ … 的 KernelBench/ 文件夹）</translation>
    </message>
</context>
<context>
    <name>kforge::CollectionVerifier</name>
    <message>
        <location filename="../core/collection/collectionverifier.cpp" line="+26" />
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+100" />
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
</context>
<context>
    <name>kforge::CompareMetricsModel</name>
    <message>
        <location filename="../views/compare/comparemetricsmodel.cpp" line="+70" />
        <source>no resource usage from the compiler was stored</source>
        <translation>未保存编译器报告的资源用量</translation>
    </message>
    <message>
        <location line="+20" />
        <source>the result keeps no percentiles of the timed runs</source>
        <translation>该结果未保存计时运行的百分位数</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Timed runs</source>
        <translation>计时运行次数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Speedup over the reference</source>
        <translation>相对参考实现的加速比</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Speed of light</source>
        <translation>光速上限</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+2" />
        <source>the task has no FLOP or byte formula, or the device peaks are unknown</source>
        <translation>任务没有 FLOP 或字节数公式，或设备峰值未知</translation>
    </message>
    <message>
        <location line="+15" />
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Kernel launches per run</source>
        <translation>每次运行的内核启动次数</translation>
    </message>
    <message>
        <location line="+2" />
        <source>DRAM traffic</source>
        <translation>DRAM 流量</translation>
    </message>
    <message>
        <location line="+2" />
        <source>DRAM bandwidth</source>
        <translation>DRAM 带宽</translation>
    </message>
    <message>
        <location line="+2" />
        <source>FP32 rate</source>
        <translation>FP32 速率</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Achieved occupancy</source>
        <translation>实际占用率</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Theoretical occupancy</source>
        <translation>理论占用率</translation>
    </message>
    <message>
        <location line="+2" />
        <source>SM throughput</source>
        <translation>SM 吞吐量</translation>
    </message>
    <message>
        <location line="+2" />
        <source>DRAM throughput</source>
        <translation>DRAM 吞吐量</translation>
    </message>
    <message>
        <location line="+2" />
        <source>L2 hit rate</source>
        <translation>L2 命中率</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Registers per thread</source>
        <translation>每线程寄存器数</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Register spills</source>
        <translation>寄存器溢出</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Shared memory per block</source>
        <translation>每线程块共享内存</translation>
    </message>
    <message>
        <location line="+70" />
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <location line="+12" />
        <location line="+12" />
        <location line="+4" />
        <location line="+9" />
        <location line="+2" />
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <location line="-27" />
        <location filename="../views/compare/comparepanel.cpp" line="+438" />
        <source>differs</source>
        <translation>不同</translation>
    </message>
    <message>
        <location line="+8" />
        <source>%1%2 pp</source>
        <translation>%1%2 个百分点</translation>
    </message>
    <message>
        <location line="+21" />
        <source>%1× faster</source>
        <translation>快 %1×</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1× slower</source>
        <translation>慢 %1×</translation>
    </message>
    <message>
        <location line="-9" />
        <location line="+12" />
        <source>ratio %1</source>
        <translation>比值 %1</translation>
    </message>
    <message>
        <location line="-199" />
        <source>%1–%2 %3</source>
        <translation>%1–%2 %3</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Event time, 10th–90th percentile</source>
        <translation>事件时间（第 10–90 百分位）</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Spread of the event time (CV)</source>
        <translation>事件时间离散度（变异系数）</translation>
    </message>
    <message>
        <location line="+180" />
        <source>%1, within noise</source>
        <translation>%1，在噪声范围内</translation>
    </message>
    <message>
        <location line="+36" />
        <source>A's time over B's: %1, with an 80% interval of %2 to %3 (%4). %5</source>
        <translation>A 的时间 / B 的时间：%1，80% 区间为 %2 至 %3（%4）。%5</translation>
    </message>
    <message>
        <location line="+3" />
        <source>a fast run of one against a slow run of the other: the 10th and 90th percentiles</source>
        <translation>一方的快速运行对另一方的慢速运行：第 10 与第 90 百分位</translation>
    </message>
    <message>
        <location line="+1" />
        <source>from each side's coefficient of variation; the result keeps no percentiles</source>
        <translation>由双方的变异系数估算；该结果未保存百分位数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The interval holds 1: the difference is within noise.</source>
        <translation>区间包含 1：差异在噪声范围内。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The interval excludes 1: the difference is real.</source>
        <translation>区间不包含 1：差异是真实的。</translation>
    </message>
    <message>
        <location line="+4" />
        <location line="+2" />
        <source>Not measured: %1</source>
        <translation>未测量：%1</translation>
    </message>
    <message>
        <location line="+39" />
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+1" />
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location line="+0" />
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <location line="+0" />
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>A against B</source>
        <translation>A 对比 B</translation>
    </message>
</context>
<context>
    <name>kforge::ComparePanel</name>
    <message>
        <location filename="../views/compare/comparepanel.cpp" line="-387" />
        <source>*No analysis is stored for %1: the model did not write it, or it was written by hand.*</source>
        <translation>*%1 没有保存分析：模型没有写，或它是手写的。*</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <location line="+23" />
        <source>Swap</source>
        <translation>交换</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <location line="+45" />
        <source>Why A beats B</source>
        <translation>A 为何胜过 B</translation>
    </message>
    <message>
        <location line="+1" />
        <source>A's analysis</source>
        <translation>A 的分析</translation>
    </message>
    <message>
        <location line="+1" />
        <source>B's analysis</source>
        <translation>B 的分析</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Source heat</source>
        <translation>源代码热度</translation>
    </message>
    <message>
        <location line="+20" />
        <location line="+86" />
        <source>Select two variants in the Variants panel and choose “Compare the Two Selected”.</source>
        <translation>在“变体”面板中选择两个变体，然后选择“比较所选的两个”。</translation>
    </message>
    <message>
        <location line="-74" />
        <source>Pairs the model was asked about in this session: choose one to read its answers</source>
        <translation>本会话中向模型提问过的变体对：选择一对以阅读其回答</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Stored answers:</source>
        <translation>已保存的回答：</translation>
    </message>
    <message>
        <location line="+67" />
        <source>Why #%1 beats #%2 · answers: %3</source>
        <translation>为什么 #%1 胜过 #%2 · 回答：%3</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Pairs with stored answers: %1 — choose one</source>
        <translation>有已保存回答的变体对：%1 — 请选择一对</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Select two variants in the Variants panel and choose “Compare the Two Selected”, or choose a stored answer above.</source>
        <translation>在“变体”面板中选择两个变体并选择“比较所选的两个”，或在上方选择一个已保存的回答。</translation>
    </message>
    <message>
        <location line="+33" />
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+10" />
        <source>&lt;b&gt;A&lt;/b&gt; %1 &amp;nbsp;against&amp;nbsp; &lt;b&gt;B&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;A&lt;/b&gt; %1 &amp;nbsp;对比&amp;nbsp; &lt;b&gt;B&lt;/b&gt; %2</translation>
    </message>
    <message>
        <location line="+16" />
        <source>Ask the model why #%1 is faster than #%2</source>
        <translation>询问模型 #%1 为何比 #%2 快</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No model connection: the workbench has no round runner.</source>
        <translation>没有模型连接：工作台没有轮次运行器。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Choose two variants of the open session.</source>
        <translation>请选择当前会话中的两个变体。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The model is answering.</source>
        <translation>模型正在回答。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Sends both sources and both profiles to the model; the answer streams into the Reasoning panel and is stored with the pair.</source>
        <translation>将两份源代码和两份性能剖析发送给模型；回答以流式显示在“推理”面板中，并与这对变体一起保存。</translation>
    </message>
    <message>
        <location line="+30" />
        <source>not evaluated yet (%1)</source>
        <translation>尚未评测（%1）</translation>
    </message>
    <message>
        <location line="+0" />
        <source>unknown variant</source>
        <translation>未知变体</translation>
    </message>
    <message>
        <location line="+20" />
        <source>Kernels of A (#%1)</source>
        <translation>A 的内核（#%1）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kernels of A (#%1): no trace: %2</source>
        <translation>A 的内核（#%1）：无跟踪记录：%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Kernels of B (#%1)</source>
        <translation>B 的内核（#%1）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kernels of B (#%1): no trace: %2</source>
        <translation>B 的内核（#%1）：无跟踪记录：%2</translation>
    </message>
    <message>
        <location line="+3" />
        <source>A: no hardware metrics: %1</source>
        <translation>A：无硬件指标：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>B: no hardware metrics: %1</source>
        <translation>B：无硬件指标：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Both are %1.</source>
        <translation>两者均为%1。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>A is %1; B is %2.</source>
        <translation>A 为%1；B 为%2。</translation>
    </message>
    <message>
        <location line="+46" />
        <source>&lt;b&gt;%1 and %2 take the same time within noise&lt;/b&gt;: %3 against %4; the 80% interval of the ratio, %5× to %6×, holds 1.</source>
        <translation>&lt;b&gt;%1 与 %2 的用时在噪声范围内相同&lt;/b&gt;：%3 对 %4；比值的 80% 区间为 %5× 至 %6×，包含 1。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>&lt;b&gt;%1 is %2× faster than %3&lt;/b&gt; (%4 against %5); the 80% interval of the ratio is %6× to %7×, so the gap is real.</source>
        <translation>&lt;b&gt;%1 比 %3 快 %2×&lt;/b&gt;（%4 对 %5）；比值的 80% 区间为 %6× 至 %7×，因此差距是真实的。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>(From the coefficients of variation: the results keep no percentiles.)</source>
        <translation>（由变异系数估算：这些结果未保存百分位数。）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The times cannot be compared: both variants need a measured time.</source>
        <translation>无法比较时间：两个变体都需要有测得的时间。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>%1 %2 against %3</source>
        <translation>%1：%2 对 %3</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 %2 against %3 (%4)</source>
        <translation>%1：%2 对 %3（%4）</translation>
    </message>
    <message>
        <location line="+5" />
        <source>What differs most: %1.</source>
        <translation>差异最大的是：%1。</translation>
    </message>
    <message>
        <location line="+20" />
        <source>*No answer about this pair yet. Ask the model with the button above.*</source>
        <translation>*这对变体还没有回答。请用上方的按钮询问模型。*</translation>
    </message>
    <message>
        <location line="+5" />
        <source>#%1 against #%2</source>
        <translation>#%1 对比 #%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>*The model is answering; the text streams into the Reasoning panel.*</source>
        <translation>*模型正在回答；文本以流式显示在“推理”面板中。*</translation>
    </message>
    <message>
        <location line="+6" />
        <source>*No answer was stored.*</source>
        <translation>*没有保存回答。*</translation>
    </message>
    <message>
        <location line="+0" />
        <source>*No answer: %1*</source>
        <translation>*没有回答：%1*</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Cannot ask: the workbench has no connection to a model.</source>
        <translation>无法询问：工作台没有连接到模型。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Cannot ask: %1</source>
        <translation>无法询问：%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Asking the model why #%1 is faster than #%2; the answer streams into the Reasoning panel.</source>
        <translation>正在询问模型 #%1 为何比 #%2 快；回答以流式显示在“推理”面板中。</translation>
    </message>
    <message>
        <location line="+21" />
        <source>The model gave no answer: %1</source>
        <translation>模型没有给出回答：%1</translation>
    </message>
    <message>
        <location line="+0" />
        <source>empty reply</source>
        <translation>空回复</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The model answered; the answer is stored with the pair.</source>
        <translation>模型已回答；回答已与这对变体一起保存。</translation>
    </message>
</context>
<context>
    <name>kforge::CompileOnly</name>
    <message>
        <location filename="../views/editor/compileonly.cpp" line="+37" />
        <source>Checking the module's Python syntax only (%1)…</source>
        <translation>仅检查模块的 Python 语法（%1）…</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Compiling only (%1)…</source>
        <translation>仅编译（%1）…</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Not checked (%1); not evaluated and not added to the session: %2.</source>
        <translation>未检查（%1）；未评估，也未加入会话：%2。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Python syntax checked: no errors; not evaluated and not added to the session: %1.</source>
        <translation>Python 语法检查无错误；未评估，也未加入会话：%1。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Python syntax error on line %1: %2; not added to the session: %3.</source>
        <translation>第 %1 行有 Python 语法错误：%2；未加入会话：%3。</translation>
    </message>
    <message>
        <location line="+17" />
        <source>Compiles without errors; not measured and not added to the session: %1.</source>
        <translation>编译无错误；未测量，也未加入会话：%1。</translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>Does not compile (%n error(s)); not added to the session: %1.</source>
        <translation>
            <numerusform>无法编译（%n 个错误）；未加入会话：%1。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::Compiler</name>
    <message>
        <location filename="../core/compile/compiler.cpp" line="+272" />
        <location line="+329" />
        <source>Compilation was cancelled.</source>
        <translation>编译已取消。</translation>
    </message>
    <message>
        <location line="-247" />
        <source>'%1 --version' failed (exit code %2): %3</source>
        <translation>“%1 --version”执行失败（退出码 %2）：%3</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Could not start the CUDA compiler %1: %2</source>
        <translation>无法启动 CUDA 编译器 %1：%2</translation>
    </message>
    <message>
        <location line="+37" />
        <source>'%1' is not a GPU architecture nvcc accepts (expected e.g. sm_90).</source>
        <translation>“%1”不是 nvcc 接受的 GPU 架构（应为例如 sm_90）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The kernel ABI header kforge/kernel.h was not found; the KForge installation is incomplete.</source>
        <translation>未找到内核 ABI 头文件 kforge/kernel.h；KForge 安装不完整。</translation>
    </message>
    <message>
        <location line="+40" />
        <source>Could not create a work folder in %1: %2</source>
        <translation>无法在 %1 中创建工作文件夹：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Could not write the kernel source to %1.</source>
        <translation>无法将内核源代码写入 %1。</translation>
    </message>
    <message>
        <location line="+67" />
        <location line="+42" />
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location line="-67" />
        <source>Showing SASS needs cuobjdump or nvdisasm from the CUDA toolkit; neither was found next to %1 or on PATH. PTX is available.</source>
        <translation>显示 SASS 需要 CUDA 工具包中的 cuobjdump 或 nvdisasm；在 %1 旁边和 PATH 中都未找到。PTX 可用。</translation>
    </message>
    <message>
        <location line="+111" />
        <source>%1 did not finish within %2 s and was stopped.</source>
        <translation>%1 未在 %2 秒内完成，已被终止。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>%1 crashed.</source>
        <translation>%1 崩溃了。</translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>%1 failed with %n error(s).</source>
        <translation>
            <numerusform>%1 失败，共 %n 个错误。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 failed with exit code %2: %3</source>
        <translation>%1 失败，退出码 %2：%3</translation>
    </message>
    <message>
        <location line="+31" />
        <source>nvcc reported success but wrote no %1.</source>
        <translation>nvcc 报告成功，但没有写出 %1。</translation>
    </message>
    <message>
        <location line="+23" />
        <source>Could not store the compiled kernel in %1.</source>
        <translation>无法将编译好的内核保存到 %1。</translation>
    </message>
</context>
<context>
    <name>kforge::CompilerPage</name>
    <message>
        <location filename="../views/settings/compilerpage.cpp" line="+23" />
        <source>Automatic: $CUDA_HOME, /usr/local/cuda, then PATH</source>
        <translation>自动：依次查找 $CUDA_HOME、/usr/local/cuda 和 PATH</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Passed to nvcc for every kernel, before the task's own flags. Quote arguments that contain spaces.</source>
        <translation>编译每个内核时传给 nvcc，位于任务自身的选项之前。含空格的参数请加引号。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>The GPU of the worker</source>
        <translation>工作进程所在的 GPU</translation>
    </message>
    <message>
        <location line="+6" />
        <source>&amp;nvcc:</source>
        <translation>&amp;nvcc：</translation>
    </message>
    <message>
        <location line="+5" />
        <source>&amp;Flags:</source>
        <translation>编译选项(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Architecture:</source>
        <translation>目标架构(&amp;A)：</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Choose nvcc</source>
        <translation>选择 nvcc</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Found nvcc %1 at %2</source>
        <translation>已找到 nvcc %1，位于 %2</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <location line="+32" />
        <source>Looking for nvcc…</source>
        <translation>正在查找 nvcc…</translation>
    </message>
</context>
<context>
    <name>kforge::Credentials</name>
    <message>
        <location filename="../core/llm/credentials.cpp" line="+20" />
        <source>KForge was built without keychain support (QtKeychain); use an environment variable for the API key.</source>
        <translation>KForge 构建时未启用密钥环支持（QtKeychain）；请用环境变量提供 API 密钥。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>the keychain has no entry '%1'</source>
        <translation>密钥环中没有条目“%1”</translation>
    </message>
    <message>
        <location line="+2" />
        <source>access to the keychain was denied</source>
        <translation>访问密钥环被拒绝</translation>
    </message>
    <message>
        <location line="+2" />
        <source>no keychain service is running (%1)</source>
        <translation>没有正在运行的密钥环服务（%1）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>keychain error: %1</source>
        <translation>密钥环错误：%1</translation>
    </message>
    <message>
        <location line="+43" />
        <source>could not create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location line="+8" />
        <location line="+6" />
        <source>could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location line="+16" />
        <source>could not read the key file %1: %2</source>
        <translation>无法读取密钥文件 %1：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>the key file %1 is empty</source>
        <translation>密钥文件 %1 为空</translation>
    </message>
    <message>
        <location line="+26" />
        <source>no API key: the endpoint names neither an environment variable nor a keychain entry</source>
        <translation>没有 API 密钥：端点既未指定环境变量，也未指定密钥环条目</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no API key: the environment variable %1 is not set</source>
        <translation>没有 API 密钥：环境变量 %1 未设置</translation>
    </message>
    <message>
        <location line="+18" />
        <source>no API key: the environment variable %1 is not set and %2</source>
        <translation>没有 API 密钥：环境变量 %1 未设置，且%2</translation>
    </message>
</context>
<context>
    <name>kforge::CudaLexer</name>
    <message>
        <location filename="../views/editor/cudalexer.cpp" line="+79" />
        <source>CUDA keyword</source>
        <translation>CUDA 关键字</translation>
    </message>
    <message>
        <location line="+1" />
        <source>CUDA type</source>
        <translation>CUDA 类型</translation>
    </message>
</context>
<context>
    <name>kforge::DiagnosticFormat</name>
    <message>
        <location filename="../views/editor/diagnosticformat.cpp" line="+17" />
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+3" />
        <source>note</source>
        <translation>注释</translation>
    </message>
    <message>
        <location line="+8" />
        <location line="+15" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-4" />
        <source>line %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <location line="+0" />
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message numerus="yes">
        <location line="+17" />
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1" />
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>kforge::DiffDock</name>
    <message>
        <location filename="../app/gui/diffdock.cpp" line="+86" />
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <location line="+2" />
        <source> (%1x)</source>
        <translation>（%1x）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+3" />
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location line="+0" />
        <source>B</source>
        <translation>B</translation>
    </message>
</context>
<context>
    <name>kforge::DiffView</name>
    <message>
        <location filename="../views/diff/diffview.cpp" line="+62" />
        <source>Previous Change</source>
        <translation>上一处更改</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Previous change (Alt+Up)</source>
        <translation>上一处更改（Alt+Up）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Next Change</source>
        <translation>下一处更改</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Next change (Alt+Down)</source>
        <translation>下一处更改（Alt+Down）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Fold Unchanged Lines</source>
        <translation>折叠未更改的行</translation>
    </message>
    <message>
        <location line="+156" />
        <source>⋯ %1 unchanged lines — click to show ⋯</source>
        <translation>⋯ %1 行未更改——点击显示 ⋯</translation>
    </message>
    <message>
        <location line="+81" />
        <source>Changes: %1 (lines changed: %2, removed: %3, added: %4)</source>
        <translation>更改：%1 处（修改 %2 行，删除 %3 行，新增 %4 行）</translation>
    </message>
    <message>
        <location line="-1" />
        <source>The sources are identical</source>
        <translation>源代码完全相同</translation>
    </message>
</context>
<context>
    <name>kforge::EndpointPresets</name>
    <message>
        <location filename="../core/llm/endpointpresets.cpp" line="+60" />
        <source>Custom endpoint</source>
        <translation>自定义端点</translation>
    </message>
</context>
<context>
    <name>kforge::EndpointsPage</name>
    <message>
        <location filename="../views/settings/endpointspage.cpp" line="+33" />
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+7" />
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+13" />
        <source>OpenAI-compatible (chat completions)</source>
        <translation>OpenAI 兼容（Chat Completions）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Anthropic (messages)</source>
        <translation>Anthropic（Messages）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>When this environment variable is set, its value is used as the API key.</source>
        <translation>设置了此环境变量时，使用其值作为 API 密钥。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>System keychain</source>
        <translation>系统密钥环</translation>
    </message>
    <message>
        <location line="+1" />
        <source>A file readable only by you</source>
        <translation>仅你可读的文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Where a key typed here is kept when you apply. The file (mode 0600) is not encrypted: anyone who can read your files as you, or your backups, can read the key. Use it where no keychain service runs (headless machines, VNC, WSL, many tiling desktops).</source>
        <translation>应用时在此输入的密钥保存在哪里。该文件（权限 0600）未加密：任何能以你的身份读取你的文件或备份的人都能读到密钥。请在没有密钥环服务的环境中使用它（无图形界面的机器、VNC、WSL、许多平铺式桌面）。</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Keep It in That &amp;File</source>
        <translation>保存到该文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+259" />
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="+21" />
        <source>The key you typed goes into %1 (readable only by you, not encrypted) when you apply.</source>
        <translation>应用时，你输入的密钥将写入 %1（仅你可读，未加密）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The key you typed goes into the system keychain when you apply.</source>
        <translation>应用时，你输入的密钥将存入系统密钥环。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The key comes from the environment variable %1, which comes before a stored key.</source>
        <translation>密钥来自环境变量 %1，它优先于已保存的密钥。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Unchanged (from the environment variable %1)</source>
        <translation>未更改（来自环境变量 %1）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Kept in %1, readable only by you (not encrypted).</source>
        <translation>保存在 %1 中，仅你可读（未加密）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Unchanged (kept in a file readable only by you)</source>
        <translation>未更改（保存在仅你可读的文件中）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No key stored: none is needed for a server on this machine.</source>
        <translation>未保存密钥：本机上的服务器不需要密钥。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>No key stored.</source>
        <translation>未保存密钥。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Checking the system keychain…</source>
        <translation>正在检查系统密钥环…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Kept in the system keychain.</source>
        <translation>保存在系统密钥环中。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Unchanged (kept in the system keychain)</source>
        <translation>未更改（保存在系统密钥环中）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No key in the system keychain (%1).</source>
        <translation>系统密钥环中没有密钥（%1）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>None is needed for a server on this machine.</source>
        <translation>本机上的服务器不需要密钥。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Optional for a server on this machine</source>
        <translation>本机上的服务器可不填</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Not stored: type the key</source>
        <translation>未保存：请输入密钥</translation>
    </message>
    <message>
        <location line="+16" />
        <source>The API key of %1 was not stored: %2. It is not saved anywhere yet; is a keychain service running? Headless machines, VNC, WSL and many tiling desktops have none.
Either set the environment variable %3 to the key before you start KForge (and enter that name under Key variable), or keep the key in %4, a file only you can read. That file is not encrypted: anyone who can read your files as you, or your backups, can read the key.</source>
        <translation>%1 的 API 密钥未能保存：%2。它目前没有保存在任何地方；密钥环服务是否在运行？无图形界面的机器、VNC、WSL 和许多平铺式桌面都没有。
可以在启动 KForge 之前把环境变量 %3 设为该密钥（并在“密钥变量”中填写这个名称），或者把密钥保存在 %4，一个只有你能读取的文件中。该文件未加密：任何能以你的身份读取你的文件或备份的人都能读到密钥。</translation>
    </message>
    <message>
        <location line="-309" />
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Base &amp;URL:</source>
        <translation>基础 &amp;URL：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Protocol:</source>
        <translation>协议(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Key &amp;variable:</source>
        <translation>密钥变量(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Keep &amp;it in:</source>
        <translation>保存位置(&amp;I)：</translation>
    </message>
    <message>
        <location line="+7" />
        <source>New rounds</source>
        <translation>新一轮的默认值</translation>
    </message>
    <message>
        <location line="+3" />
        <source>How many kernels the model writes per round.</source>
        <translation>模型每轮编写的内核数量。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>How many earlier variants, with their measured speedups, the prompt shows.</source>
        <translation>提示词中展示多少个此前的变体及其实测加速比。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>&amp;Candidates per round:</source>
        <translation>每轮候选数(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Exemplars:</source>
        <translation>示例数(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T)：</translation>
    </message>
    <message>
        <location line="+22" />
        <source>Models</source>
        <translation>模型</translation>
    </message>
</context>
<context>
    <name>kforge::EvaluationQueue</name>
    <message>
        <location filename="../core/queue/evaluationqueue.cpp" line="+113" />
        <location line="+89" />
        <location line="+17" />
        <source>Open a session with a task first.</source>
        <translation>请先打开一个包含任务的会话。</translation>
    </message>
    <message>
        <location line="-101" />
        <source>The session's task does not load: %1</source>
        <translation>无法加载会话的任务：%1</translation>
    </message>
    <message>
        <location line="+41" />
        <location line="+92" />
        <source>There is no variant %1.</source>
        <translation>没有变体 %1。</translation>
    </message>
    <message>
        <location line="-47" />
        <location line="+17" />
        <source>The variant has no source.</source>
        <translation>该变体没有源代码。</translation>
    </message>
    <message>
        <location line="+19" />
        <source>There is no variant %1 to fork.</source>
        <translation>没有可派生的变体 %1。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>fork of %1</source>
        <translation>%1 的派生</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Variant %1 is being evaluated already.</source>
        <translation>变体 %1 已在评测中。</translation>
    </message>
    <message>
        <location line="+103" />
        <source>The evaluation was cancelled.</source>
        <translation>评测已取消。</translation>
    </message>
    <message>
        <location line="+34" />
        <source>deep check running: %1</source>
        <translation>深度检查进行中：%1</translation>
    </message>
    <message>
        <location line="+24" />
        <source>The deep check was cancelled.</source>
        <translation>深度检查已取消。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the deep check was cancelled; first result: %1</source>
        <translation>深度检查已取消；首次结果：%1</translation>
    </message>
    <message>
        <location line="+10" />
        <source>the deep check passed, but the result is still under the speed-of-light floor, which no kernel can be</source>
        <translation>深度检查已通过，但结果仍低于光速上限，任何内核都不可能做到</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the worker did not run the deep check (an older kforge-worker without deep support); %1</source>
        <translation>工作进程未运行深度检查（不支持深度检查的旧版 kforge-worker）；%1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>the deep check could not run: %1</source>
        <translation>深度检查无法运行：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the deep check failed (%1): %2</source>
        <translation>深度检查未通过（%1）：%2</translation>
    </message>
</context>
<context>
    <name>kforge::ExportActions</name>
    <message>
        <location filename="../app/gui/exportactions.cpp" line="+51" />
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Writing %1 failed: %2</source>
        <translation>写入 %1 失败：%2</translation>
    </message>
    <message>
        <location line="+57" />
        <source>Export variant #%1 as a CMake or PyTorch project</source>
        <translation>将变体 #%1 导出为 CMake 或 PyTorch 项目</translation>
    </message>
    <message>
        <location line="+1" />
        <source>No variant of this session is measured correct yet</source>
        <translation>本会话中还没有经测量确认正确的变体</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Variant #%1 cannot be exported: %2</source>
        <translation>变体 #%1 无法导出：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Variant #%1 is a project of its own there, with its README, test and benchmark.</source>
        <translation>变体 #%1 已在该处成为独立项目，附带 README、测试和基准测试。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Save Report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location line="+2" />
        <source>HTML files (*.html)</source>
        <translation>HTML 文件 (*.html)</translation>
    </message>
    <message>
        <location line="+17" />
        <source>No report can be made of this session: %1</source>
        <translation>无法为本会话生成报告：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+3" />
        <source>%n variant(s); the best %1 in full, with their diffs and the model's analyses.</source>
        <translation>
            <numerusform>%n 个变体；最佳的 %1 个完整展示，含其差异和模型的分析。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3" />
        <source>Writing the report…</source>
        <translation>正在写入报告…</translation>
    </message>
    <message>
        <location line="+11" />
        <location line="+34" />
        <source>Export Training Data</source>
        <translation>导出训练数据</translation>
    </message>
    <message>
        <location line="-33" />
        <source>Only answers whose kernel was verified &amp;correct</source>
        <translation>仅限内核经验证正确的回答(&amp;C)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Only answers at &amp;least</source>
        <translation>仅限至少达到(&amp;L)</translation>
    </message>
    <message>
        <location line="+4" />
        <source>× the reference</source>
        <translation>× 参考实现</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Also results held for &amp;review and results of degenerate tasks</source>
        <translation>同时包括待审核的结果和退化任务的结果(&amp;R)</translation>
    </message>
    <message>
        <location line="+6" />
        <source>&amp;Choose File…</source>
        <translation>选择文件(&amp;C)…</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Every model answer of this session as one JSON object per line: the prompt as chat messages, the answer, its parsed parts, the verdict and the measured speedup.</source>
        <translation>本会话的每个模型回答各占一行 JSON 对象：以对话消息形式给出的提示词、回答、解析出的各部分、判定和测得的加速比。</translation>
    </message>
    <message>
        <location line="+17" />
        <source>JSON lines (*.jsonl)</source>
        <translation>JSON 行 (*.jsonl)</translation>
    </message>
    <message>
        <location line="+13" />
        <source>This session has no task, so it has no training data.</source>
        <translation>本会话没有任务，因此没有训练数据。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 of %2 model answers.</source>
        <translation>%2 个模型回答中的 %1 个。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Left out: %1 not correct, %2 below the speedup, %3 held for review, %4 degenerate.</source>
        <translation>未包括：%1 个不正确，%2 个低于加速比，%3 个待审核，%4 个退化。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Writing the training data…</source>
        <translation>正在写入训练数据…</translation>
    </message>
    <message>
        <location line="+17" />
        <location line="+14" />
        <location line="+4" />
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
    <message>
        <location line="-1" />
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Show &amp;Folder</source>
        <translation>显示文件夹(&amp;F)</translation>
    </message>
</context>
<context>
    <name>kforge::ExportContext</name>
    <message>
        <location filename="../core/export/exportcontext.cpp" line="+44" />
        <source>the task has no name</source>
        <translation>任务没有名称</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the task %1 has no outputs</source>
        <translation>任务 %1 没有输出</translation>
    </message>
    <message>
        <location line="+2" />
        <source>variant %1 has no source</source>
        <translation>变体 %1 没有源代码</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the task %1 has no reference source</source>
        <translation>任务 %1 没有参考实现源代码</translation>
    </message>
    <message>
        <location line="+4" />
        <source>tensor %1 has %2 dimensions; the kernel ABI allows %3</source>
        <translation>张量 %1 有 %2 个维度；内核 ABI 最多允许 %3 个</translation>
    </message>
</context>
<context>
    <name>kforge::ExportDialog</name>
    <message>
        <location filename="../views/export/exportdialog.cpp" line="+53" />
        <source>Choose the folder to export to.</source>
        <translation>请选择导出目标文件夹。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>%1 has no CMakeLists.txt: 'into' adds the kernel to an existing CMake project.</source>
        <translation>%1 中没有 CMakeLists.txt：“into”会把内核添加到现有的 CMake 项目中。</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Variant %1 cannot be exported: %2</source>
        <translation>变体 %1 无法导出：%2</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Export variant #%1</source>
        <translation>导出变体 #%1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>#%1 of %2</source>
        <translation>%2 的 #%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>, %1 on %2</source>
        <translation>，%2 上 %1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Variant:</source>
        <translation>变体：</translation>
    </message>
    <message>
        <location line="+8" />
        <source>PyTorch ModelNew module, with the reference, a test and a benchmark</source>
        <translation>PyTorch ModelNew 模块，含参考实现、测试和基准测试</translation>
    </message>
    <message>
        <location line="+3" />
        <source>PyTorch extension of the kernel, called by a ModelNew module, with the reference, a test and a benchmark</source>
        <translation>内核的 PyTorch 扩展，由 ModelNew 模块调用，含参考实现、测试和基准测试</translation>
    </message>
    <message>
        <location line="+4" />
        <source>CMake CUDA library project, with test and benchmark</source>
        <translation>CMake CUDA 库项目，含测试和基准测试</translation>
    </message>
    <message>
        <location line="+1" />
        <source>PyTorch C++/CUDA extension, with Python test</source>
        <translation>PyTorch C++/CUDA 扩展，含 Python 测试</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Into an existing CMake project</source>
        <translation>导出到现有 CMake 项目</translation>
    </message>
    <message>
        <location line="+2" />
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+5" />
        <source>F&amp;older:</source>
        <translation>文件夹(&amp;O)：</translation>
    </message>
    <message>
        <location line="+5" />
        <source>&amp;Subfolder:</source>
        <translation>子文件夹(&amp;S)：</translation>
    </message>
    <message>
        <location line="+5" />
        <source>License header for every generated source file (optional)</source>
        <translation>每个生成的源文件的许可证头（可选）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Load…</source>
        <translation>加载…</translation>
    </message>
    <message>
        <location line="+4" />
        <source>&amp;License:</source>
        <translation>许可证(&amp;L)：</translation>
    </message>
    <message>
        <location line="+20" />
        <source>Add these lines to the project's CMakeLists.txt (those marked "already there" are):</source>
        <translation>请将以下各行添加到项目的 CMakeLists.txt 中（标有“已存在”的已在其中）：</translation>
    </message>
    <message>
        <location line="+9" />
        <source>&amp;Overwrite files that differ</source>
        <translation>覆盖有差异的文件(&amp;O)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location line="+34" />
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <location line="+5" />
        <location line="+7" />
        <source>License header</source>
        <translation>许可证头</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+62" />
        <source>Comparing with the files on disk…</source>
        <translation>正在与磁盘上的文件比较…</translation>
    </message>
    <message numerus="yes">
        <location line="+24" />
        <source>%n file(s) in %1: </source>
        <translation>
            <numerusform>%1 中有 %n 个文件：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 new, %2 unchanged, %3 in conflict.</source>
        <translation>%1 个新建，%2 个未更改，%3 个冲突。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Files in conflict differ from what is on disk: they are written only with "Overwrite files that differ".</source>
        <translation>冲突文件与磁盘上的内容不同：只有勾选“覆盖有差异的文件”时才会写入。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <location line="+20" />
        <source>Conflict: %1</source>
        <translation>冲突：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>on disk: %1</source>
        <translation>磁盘上：%1</translation>
    </message>
    <message>
        <location line="+0" />
        <source>export: %1</source>
        <translation>导出：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Conflict: %1. What the export would change:</source>
        <translation>冲突：%1。导出将做如下更改：</translation>
    </message>
    <message>
        <location line="+20" />
        <source>Writing…</source>
        <translation>正在写入…</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
</context>
<context>
    <name>kforge::ExportPlan</name>
    <message>
        <location filename="../core/export/exportplan.cpp" line="+44" />
        <source>%1 is a file, not a folder</source>
        <translation>%1 是文件，不是文件夹</translation>
    </message>
    <message>
        <location line="+5" />
        <source>a folder of that name is in the way</source>
        <translation>已有同名文件夹</translation>
    </message>
    <message>
        <location line="+5" />
        <source>the existing file cannot be read: %1</source>
        <translation>无法读取现有文件：%1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>a different file is there</source>
        <translation>该处已有不同的文件</translation>
    </message>
    <message numerus="yes">
        <location line="+26" />
        <source>%n file(s) would be overwritten</source>
        <translation>
            <numerusform>将覆盖 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9" />
        <source>cannot replace the folder %1 with a file</source>
        <translation>无法用文件替换文件夹 %1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location line="+7" />
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::ExportPlanModel</name>
    <message>
        <location filename="../views/export/exportplanmodel.cpp" line="+37" />
        <source>new</source>
        <translation>新建</translation>
    </message>
    <message>
        <location line="+1" />
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
    <message>
        <location line="+1" />
        <source>conflict</source>
        <translation>冲突</translation>
    </message>
    <message>
        <location line="+14" />
        <source>%1
Conflict: %2</source>
        <translation>%1
冲突：%2</translation>
    </message>
    <message>
        <location line="+25" />
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+0" />
        <source>On disk</source>
        <translation>磁盘上</translation>
    </message>
</context>
<context>
    <name>kforge::Exporter</name>
    <message>
        <location filename="../core/export/exporter.cpp" line="+20" />
        <source>choose a subfolder of the project for the kernel (--subdir)</source>
        <translation>请为内核选择项目中的子文件夹（--subdir）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the subfolder must be relative to the project: %1</source>
        <translation>子文件夹必须是相对于项目的路径：%1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>the subfolder must stay inside the project: %1</source>
        <translation>子文件夹必须位于项目之内：%1</translation>
    </message>
    <message>
        <location line="+11" />
        <source>variant %1 is a PyTorch ModelNew module (Python): it exports as 'torch' (the module, the task's reference, a test and a benchmark); '%2' builds a .cu kernel</source>
        <translation>变体 %1 是 PyTorch ModelNew 模块（Python）：它以“torch”格式导出（模块、任务的参考实现、测试和基准测试）；“%2”生成的是 .cu 内核</translation>
    </message>
    <message>
        <location line="+12" />
        <source>variant %1 is a .cu kernel of a PyTorch task: it exports as 'torch' (a PyTorch extension called by a ModelNew module, the task's reference, a test and a benchmark); '%2' needs a CUDA task's reference kernel</source>
        <translation>变体 %1 是 PyTorch 任务的 .cu 内核：它以“torch”格式导出（由 ModelNew 模块调用的 PyTorch 扩展、任务的参考实现、测试和基准测试）；“%2”需要 CUDA 任务的参考内核</translation>
    </message>
</context>
<context>
    <name>kforge::FindBar</name>
    <message>
        <location filename="../views/editor/findbar.cpp" line="+21" />
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Whole words</source>
        <translation>全字匹配</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Replace All</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Close the find bar (Esc)</source>
        <translation>关闭查找栏（Esc）</translation>
    </message>
    <message>
        <location line="+112" />
        <location line="+45" />
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message numerus="yes">
        <location line="+0" />
        <source>%n replaced</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::GeneralPage</name>
    <message>
        <location filename="../views/settings/generalpage.cpp" line="+16" />
        <location line="+5" />
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The new language is used from the next start of KForge.</source>
        <translation>新语言将在下次启动 KForge 时生效。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+2" />
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <location line="+5" />
        <source>General</source>
        <translation>常规</translation>
    </message>
</context>
<context>
    <name>kforge::GettingStarted</name>
    <message>
        <location filename="../app/gui/gettingstarted.cpp" line="+43" />
        <source>The example session is not installed (it belongs in share/kforge/examples/%1).</source>
        <translation>未安装示例会话（它应位于 share/kforge/examples/%1）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Could not make the folder %1 for a copy of the example.</source>
        <translation>无法为示例副本创建文件夹 %1。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Could not copy the example session to %1.</source>
        <translation>无法将示例会话复制到 %1。</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Getting Started with KForge</source>
        <translation>KForge 入门</translation>
    </message>
    <message>
        <location line="+5" />
        <source>&lt;h2&gt;Getting started&lt;/h2&gt;&lt;p&gt;KForge makes a CUDA kernel faster with a language model in the loop. Each round the model is shown earlier variants with their &lt;i&gt;measured&lt;/i&gt; speedups and profiles, explains why the faster ones are faster, and writes new candidates; KForge compiles, verifies and times every one of them on a GPU.&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Open a task&lt;/b&gt; (File → Open Task Folder…): a folder with &lt;tt&gt;task.json&lt;/tt&gt; and &lt;tt&gt;reference.cu&lt;/tt&gt;. KForge ships examples; the reference opens in the editor and a working session keeps every result.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Add a GPU worker&lt;/b&gt; (Settings → Workers, in the Tools menu). Only the worker runs kernels. Without a GPU here, run it on a machine that has one: &lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;. Without any worker, kernels are still compiled and their errors shown, but nothing is measured.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Add a model&lt;/b&gt; (Settings → Models): an OpenAI-compatible or Anthropic endpoint and its API key.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Run a round&lt;/b&gt; (Round Control → Start Round) and watch the answers arrive in Reasoning.&lt;/li&gt;&lt;li&gt;&lt;b&gt;See why A beats B&lt;/b&gt; in Variants, Charts, Compare and Diff; pin exemplars, or fork a variant, edit it and press Ctrl+Enter to measure your own idea.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Take the winner home&lt;/b&gt;: File → Export Variant… makes a CMake or PyTorch project with a test and a benchmark; File → Save Report… writes one HTML file to share.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;&lt;b&gt;No GPU yet?&lt;/b&gt; Open the example session: a real session measured on an NVIDIA H200 (diag_matmul), with its rounds, variants, profiles and the model's analyses. It opens as a copy, so the example itself stays as installed.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;入门&lt;/h2&gt;&lt;p&gt;KForge 借助语言模型让 CUDA 内核更快。每一轮中，模型会看到先前的变体及其&lt;i&gt;实测&lt;/i&gt;加速比和性能分析，解释较快的变体为何更快，并写出新的候选；KForge 在 GPU 上编译、验证并计时每一个候选。&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;打开任务&lt;/b&gt;（文件 → 打开任务文件夹…）：一个包含 &lt;tt&gt;task.json&lt;/tt&gt; 和 &lt;tt&gt;reference.cu&lt;/tt&gt; 的文件夹。KForge 自带示例；参考实现会在编辑器中打开，工作会话会保存每个结果。&lt;/li&gt;&lt;li&gt;&lt;b&gt;添加 GPU 工作进程&lt;/b&gt;（“设置 → 工作进程”，在“工具”菜单中）。只有工作进程运行内核。本机没有 GPU 时，请在有 GPU 的机器上运行它：&lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;。没有任何工作进程时，内核仍会被编译并显示错误，但不会进行任何测量。&lt;/li&gt;&lt;li&gt;&lt;b&gt;添加模型&lt;/b&gt;（设置 → 模型）：一个兼容 OpenAI 或 Anthropic 的端点及其 API 密钥。&lt;/li&gt;&lt;li&gt;&lt;b&gt;运行一轮&lt;/b&gt;（轮次控制 → 开始轮次），在“推理”中查看陆续到达的回答。&lt;/li&gt;&lt;li&gt;在“变体”“图表”“对比”和“差异”中&lt;b&gt;查看 A 为何胜过 B&lt;/b&gt;；固定示例，或派生一个变体、编辑后按 Ctrl+Enter 测量你自己的想法。&lt;/li&gt;&lt;li&gt;&lt;b&gt;带走优胜者&lt;/b&gt;：文件 → 导出变体… 会生成带测试和基准测试的 CMake 或 PyTorch 项目；文件 → 保存报告… 会写出一个可分享的 HTML 文件。&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;&lt;b&gt;还没有 GPU？&lt;/b&gt;打开示例会话：一个在 NVIDIA H200 上实测的真实会话（diag_matmul），包含其轮次、变体、性能分析和模型的分析。它以副本形式打开，已安装的示例本身保持不变。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Open &amp;Example Session</source>
        <translation>打开示例会话(&amp;E)</translation>
    </message>
    <message>
        <location line="+5" />
        <source>The example session is not installed.</source>
        <translation>未安装示例会话。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Open &amp;Task Folder…</source>
        <translation>打开任务文件夹(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Settings → &amp;Workers…</source>
        <translation>设置 → 工作进程(&amp;W)…</translation>
    </message>
    <message>
        <location line="+22" />
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
</context>
<context>
    <name>kforge::HackClasses</name>
    <message>
        <location filename="../core/collection/hackclass.cpp" line="+22" />
        <location line="+1" />
        <source>side-stream / unjoined async work</source>
        <translation>旁路流 / 未汇合的异步工作</translation>
    </message>
    <message>
        <location line="+1" />
        <source>trace evasion (its process refused the profile pass)</source>
        <translation>规避追踪（其进程拒绝了性能剖析）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>work outside the call (thread injection)</source>
        <translation>调用之外的工作（线程注入）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>timer tampering (its own timing disagrees with the judge's)</source>
        <translation>篡改计时（其自身计时与评判的不一致）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>input mutation</source>
        <translation>修改输入</translation>
    </message>
    <message>
        <location line="+1" />
        <source>degenerate output (the task's output is constant)</source>
        <translation>退化输出（任务的输出是常量）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>input-distribution exploitation (fails on edge inputs)</source>
        <translation>利用输入分布（在边界输入上失败）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>shape hard-coding (fails at held-out sizes)</source>
        <translation>硬编码形状（在留出尺寸上失败）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>precision downgrade (passes only at a looser tolerance)</source>
        <translation>降低精度（只在更宽松的容差下通过）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>precision lowered (far less accurate than the reference against float64)</source>
        <translation>精度被降低（相对 float64 的误差远大于参考实现）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>skipped work or algebraic shortcut (faster than the FLOP floor)</source>
        <translation>跳过工作或代数捷径（快于 FLOP 下限）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>device settings changed during the evaluation (global state)</source>
        <translation>评估期间设备设置被更改（全局状态）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>baseline inflation (GPU work beside the reference's window)</source>
        <translation>基线膨胀（参考实现的计时窗口旁有 GPU 工作）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>physically impossible time (result caching or skipped work)</source>
        <translation>物理上不可能的时间（缓存结果或跳过工作）</translation>
    </message>
</context>
<context>
    <name>kforge::HeatCompareView</name>
    <message>
        <location filename="../views/compare/heatcompareview.cpp" line="+87" />
        <source>Profile A and B</source>
        <translation>剖析 A 和 B</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Profile A</source>
        <translation>剖析 A</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Profile B</source>
        <translation>剖析 B</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Evaluates %1 again with CUPTI PC sampling, so the hottest lines and stall reasons can be compared here and reach the "why" prompt</source>
        <translation>使用 CUPTI PC 采样重新评估%1，以便在此对比最热的代码行和停顿原因，并把它们写入“为什么更快”的提示词</translation>
    </message>
    <message>
        <location line="+2" />
        <source>both variants</source>
        <translation>两个变体</translation>
    </message>
    <message>
        <location line="+0" />
        <source>the variant without a profile</source>
        <translation>没有剖析数据的变体</translation>
    </message>
    <message>
        <location line="+26" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+6" />
        <source>%1: %n sample(s); stalls: %2</source>
        <translation>
            <numerusform>%1：%n 个样本；停顿：%2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::HeatGutter</name>
    <message>
        <location filename="../views/editor/heatgutter.cpp" line="+83" />
        <source>No samples</source>
        <translation>无样本</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1% of samples (%2 of %3)</source>
        <translation>占样本的 %1%（%3 个中的 %2 个）</translation>
    </message>
</context>
<context>
    <name>kforge::HeatLinesModel</name>
    <message>
        <location filename="../views/editor/heatlinesmodel.cpp" line="+67" />
        <source>Stalls: %1</source>
        <translation>停顿：%1</translation>
    </message>
    <message>
        <location line="+16" />
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Top stalls</source>
        <translation>主要停顿</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Source</source>
        <translation>源代码</translation>
    </message>
</context>
<context>
    <name>kforge::HeldOutSizes</name>
    <message>
        <location filename="../core/collection/heldoutsizes.cpp" line="+89" />
        <source>no size constant to change (an int of at least 8 that sizes an input, assigned as a literal)</source>
        <translation>没有可更改的尺寸常量（决定某个输入尺寸、以字面量赋值且至少为 8 的整数）</translation>
    </message>
</context>
<context>
    <name>kforge::InstructionMix</name>
    <message>
        <location filename="../core/sourcelevel/instructionmix.cpp" line="+60" />
        <source>global memory</source>
        <translation>全局内存</translation>
    </message>
    <message>
        <location line="+1" />
        <source>shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <location line="+1" />
        <source>local memory</source>
        <translation>本地内存</translation>
    </message>
    <message>
        <location line="+1" />
        <source>constant loads</source>
        <translation>常量加载</translation>
    </message>
    <message>
        <location line="+1" />
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location line="+1" />
        <source>FP16/BF16</source>
        <translation>FP16/BF16</translation>
    </message>
    <message>
        <location line="+1" />
        <source>FP64</source>
        <translation>FP64</translation>
    </message>
    <message>
        <location line="+1" />
        <source>tensor core</source>
        <translation>张量核心</translation>
    </message>
    <message>
        <location line="+1" />
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>conversion</source>
        <translation>类型转换</translation>
    </message>
    <message>
        <location line="+1" />
        <source>warp shuffle/vote</source>
        <translation>warp 洗牌/投票</translation>
    </message>
    <message>
        <location line="+1" />
        <source>control</source>
        <translation>控制流</translation>
    </message>
    <message>
        <location line="+1" />
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location line="+1" />
        <source>move</source>
        <translation>数据移动</translation>
    </message>
    <message>
        <location line="+4" />
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location line="+14" />
        <source>%1% %2</source>
        <translation>%1% %2</translation>
    </message>
    <message numerus="yes">
        <location line="+1" />
        <source>%n instruction(s): %1</source>
        <translation>
            <numerusform>%n 条指令：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::KernelBenchRunReader</name>
    <message>
        <location filename="../core/collection/kernelbenchrunreader.cpp" line="+40" />
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>%1 is not a JSON object: %2</source>
        <translation>%1 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <location line="+67" />
        <source>no problem file (*.py) in %1: --problems names a KernelBench checkout or its KernelBench/ folder</source>
        <translation>%1 中没有问题文件（*.py）：--problems 应指向 KernelBench 的检出目录或其 KernelBench/ 文件夹</translation>
    </message>
    <message>
        <location line="+20" />
        <source>no generated kernel (level_L_problem_P_sample_S_kernel.py) in this folder</source>
        <translation>此文件夹中没有生成的内核（level_L_problem_P_sample_S_kernel.py）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>empty: the generation wrote no code for this sample</source>
        <translation>为空：生成过程没有为此样本写出代码</translation>
    </message>
    <message>
        <location line="+5" />
        <source>defines no class ModelNew (the model's answer held no usable code)</source>
        <translation>没有定义 class ModelNew（模型的回答中没有可用的代码）</translation>
    </message>
    <message>
        <location line="+8" />
        <source>pairs with no problem: %1 has no problem %2 in level %3</source>
        <translation>无法配对：%1 的第 %3 级中没有问题 %2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>problem %1 of level %2 is more than one file in %3</source>
        <translation>%3 中第 %2 级的问题 %1 对应不止一个文件</translation>
    </message>
    <message>
        <location line="+7" />
        <source>its problem %1 is empty or cannot be read</source>
        <translation>它的问题 %1 为空或无法读取</translation>
    </message>
    <message>
        <location line="+14" />
        <source>KernelBench found it not correct</source>
        <translation>KernelBench 判定其不正确</translation>
    </message>
    <message>
        <location line="+1" />
        <source>KernelBench found it not correct: %1</source>
        <translation>KernelBench 判定其不正确：%1</translation>
    </message>
</context>
<context>
    <name>kforge::KernelEditor</name>
    <message>
        <location filename="../views/editor/kerneleditor.cpp" line="+51" />
        <source>No task is open.
Open a task folder (task.json and reference.cu) or a session to see its kernels here.</source>
        <translation>尚未打开任务。
打开一个任务文件夹（含 task.json 和 reference.cu）或一个会话，即可在此查看其内核。</translation>
    </message>
    <message>
        <location line="+38" />
        <source>Compile &amp;&amp; Evaluate</source>
        <translation>编译并评估</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Next &amp;Problem</source>
        <translation>下一个问题(&amp;P)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Previous Pro&amp;blem</source>
        <translation>上一个问题(&amp;B)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>F&amp;ork to Edit</source>
        <translation>派生后编辑(&amp;O)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <location line="+79" />
        <source>Close Tab</source>
        <translation>关闭标签页</translation>
    </message>
    <message>
        <location line="+1" />
        <source>“%1” has edits that were never evaluated, so they are in no session. Close it and discard them?</source>
        <translation>“%1”中的修改从未评估过，因此不在任何会话中。要关闭它并丢弃这些修改吗？</translation>
    </message>
</context>
<context>
    <name>kforge::KernelInfoStrip</name>
    <message numerus="yes">
        <location filename="../views/editor/kernelinfostrip.cpp" line="+206" />
        <source>… and %n more</source>
        <translation>
            <numerusform>…… 另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14" />
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Spills (stores / loads)</source>
        <translation>溢出（存储 / 加载）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Stack</source>
        <translation>栈</translation>
    </message>
    <message>
        <location line="+13" />
        <source>Architecture: %1</source>
        <translation>架构：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Barriers: %1</source>
        <translation>屏障：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Constant memory: %1</source>
        <translation>常量内存：%1</translation>
    </message>
    <message>
        <location line="+10" />
        <source>⚠ %1 / %2</source>
        <translation>⚠ %1 / %2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Registers spill to local memory: %1 of spill stores and %2 of spill loads. Spilling is slow; fewer live values or a higher register limit avoid it.</source>
        <translation>寄存器溢出到本地内存：溢出存储 %1，溢出加载 %2。溢出很慢；减少同时存活的值或提高寄存器上限可以避免。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>kforge::KernelListModel</name>
    <message numerus="yes">
        <location filename="../views/compare/kernellistmodel.cpp" line="+52" />
        <source>%1
%n launch(es) in the timed runs</source>
        <translation>
            <numerusform>%1
计时运行中共 %n 次启动</numerusform>
        </translation>
    </message>
    <message>
        <location line="+35" />
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Launches/run</source>
        <translation>启动次数/运行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <location line="-6" />
        <source>One launch's mean duration in CUPTI's trace</source>
        <translation>CUPTI 跟踪中单次启动的平均时长</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Kernel time/run</source>
        <translation>内核时间/运行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Shared mem</source>
        <translation>共享内存</translation>
    </message>
</context>
<context>
    <name>kforge::KernelTimeChart</name>
    <message>
        <location filename="../views/charts/kerneltimechart.cpp" line="+24" />
        <location line="+75" />
        <source>%1 per run (%2)</source>
        <translation>%1，每次运行（%2）</translation>
    </message>
    <message>
        <location line="-59" />
        <source>No session is open</source>
        <translation>没有打开的会话</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Select variants to see their kernels</source>
        <translation>选择变体以查看其内核</translation>
    </message>
    <message>
        <location line="+17" />
        <source>#%1: not evaluated</source>
        <translation>#%1：未评测</translation>
    </message>
    <message>
        <location line="+10" />
        <source>#%1: no kernel trace (%2)</source>
        <translation>#%1：无内核跟踪记录（%2）</translation>
    </message>
    <message>
        <location line="+0" />
        <source>no kernels</source>
        <translation>无内核</translation>
    </message>
</context>
<context>
    <name>kforge::LlmClient</name>
    <message>
        <location filename="../core/llm/llmtransferloop.cpp" line="+62" />
        <source>no API key was sent</source>
        <translation>未发送 API 密钥</translation>
    </message>
    <message>
        <location line="+2" />
        <source>from the environment variable %1</source>
        <translation>来自环境变量 %1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>from the keychain entry '%1'</source>
        <translation>来自密钥环条目“%1”</translation>
    </message>
    <message>
        <location line="+209" />
        <source>libcurl refused the transfer</source>
        <translation>libcurl 拒绝了此次传输</translation>
    </message>
    <message>
        <location line="+224" />
        <source>it answered with %1 instead of an event stream; check the base URL</source>
        <translation>它返回的是 %1 而不是事件流；请检查基础 URL</translation>
    </message>
    <message>
        <location line="+47" />
        <source>the server asked to wait %1 s</source>
        <translation>服务器要求等待 %1 秒</translation>
    </message>
</context>
<context>
    <name>kforge::LlmErrors</name>
    <message>
        <location filename="../core/llm/llmerrors.cpp" line="+95" />
        <source>The request was not sent</source>
        <translation>请求未发送</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Could not resolve the host name '%1'. Check the endpoint's base URL and the network or DNS settings.</source>
        <translation>无法解析主机名“%1”。请检查端点的基础 URL 以及网络或 DNS 设置。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>The secure connection (TLS) to %1 failed: %2. If the server uses a private certificate authority, set the endpoint's CA bundle; verification stays on.</source>
        <translation>与 %1 的安全连接（TLS）失败：%2。如果服务器使用私有证书颁发机构，请设置端点的 CA 证书包；证书验证始终保持开启。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the certificate could not be verified</source>
        <translation>无法验证证书</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The connection to %1 broke in the middle of the answer, after %2 characters; the answer is incomplete</source>
        <translation>与 %1 的连接在回答中途断开（已收到 %2 个字符）；回答不完整</translation>
    </message>
    <message>
        <location line="+8" />
        <source>%1 sent nothing for %2 s, so the request was abandoned (idle timeout).</source>
        <translation>%1 在 %2 秒内没有发送任何数据，因此放弃了该请求（空闲超时）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The request to %1 took longer than the limit of %2 s.</source>
        <translation>发往 %1 的请求超过了 %2 秒的时间限制。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 rejected the API key (HTTP %2). Check the key%3</source>
        <translation>%1 拒绝了 API 密钥（HTTP %2）。请检查密钥%3</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Not found (HTTP 404) at %1: either the model '%2' does not exist there or the base URL is wrong</source>
        <translation>在 %1 未找到（HTTP 404）：要么该处不存在模型“%2”，要么基础 URL 有误</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 rejected the request (HTTP %2)</source>
        <translation>%1 拒绝了请求（HTTP %2）</translation>
    </message>
    <message>
        <location line="+15" />
        <source>%1 sent a stream that could not be read</source>
        <translation>%1 发送的流无法读取</translation>
    </message>
    <message>
        <location line="-129" />
        <source> after %1 attempts</source>
        <translation>（已尝试 %1 次）</translation>
    </message>
    <message>
        <location line="+79" />
        <source>Could not connect to %1%2: nothing accepted the connection. Is the server running and is the base URL right?</source>
        <translation>无法连接到 %1%2：没有服务接受连接。服务器是否在运行？基础 URL 是否正确？</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Connecting to %1 timed out after %2 s%3.</source>
        <translation>连接 %1 在 %2 秒后超时%3。</translation>
    </message>
    <message>
        <location line="+12" />
        <source>The connection to %1 broke before the answer began%2</source>
        <translation>与 %1 的连接在回答开始前断开%2</translation>
    </message>
    <message>
        <location line="+21" />
        <source>%1 is rate limiting the requests (HTTP 429)%2</source>
        <translation>%1 正在对请求限流（HTTP 429）%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 had a server error%2%3</source>
        <translation>%1 发生服务器错误%2%3</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 answered with the unexpected HTTP status %2</source>
        <translation>%1 返回了意外的 HTTP 状态 %2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The stream from %1 ended without its end marker after %2 characters: the answer is incomplete.</source>
        <translation>来自 %1 的流在 %2 个字符后结束，但没有结束标记：回答不完整。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>%1 reported an error in the middle of the stream</source>
        <translation>%1 在流传输中途报告了错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 stopped the answer with its content filter.</source>
        <translation>%1 的内容过滤器中止了回答。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>kforge::LogHub</name>
    <message>
        <location filename="../core/log/loghub.cpp" line="+77" />
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Info</source>
        <translation>信息</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>kforge::LogPanel</name>
    <message>
        <location filename="../views/log/logpanel.cpp" line="+33" />
        <source>Show messages from: %1</source>
        <translation>显示来自 %1 的消息</translation>
    </message>
    <message>
        <location line="+5" />
        <source>All levels</source>
        <translation>所有级别</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Info and above</source>
        <translation>信息及以上</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Warnings and errors</source>
        <translation>警告和错误</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Filter messages</source>
        <translation>筛选消息</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Remove every message from the log</source>
        <translation>移除日志中的所有消息</translation>
    </message>
</context>
<context>
    <name>kforge::MainActions</name>
    <message>
        <location filename="../app/gui/mainactions.cpp" line="+32" />
        <source>Open &amp;Task Folder…</source>
        <translation>打开任务文件夹(&amp;T)…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Open a task: a folder with task.json and reference.cu</source>
        <translation>打开任务：包含 task.json 和 reference.cu 的文件夹</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Open File…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Open a task.json, a PyTorch problem (*.py, imported as a task) or a session file</source>
        <translation>打开 task.json、PyTorch 问题（*.py，作为任务导入）或会话文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Open &amp;Session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Open a KForge session file (*.kforge)</source>
        <translation>打开 KForge 会话文件（*.kforge）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Save Session &amp;As…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Save the open task or session as a session file</source>
        <translation>将打开的任务或会话保存为会话文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Export Variant…</source>
        <translation>导出变体(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Export the selected variant (or the fastest correct one) as a CMake or PyTorch project</source>
        <translation>将选中的变体（或最快的正确变体）导出为 CMake 或 PyTorch 项目</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Save &amp;Report…</source>
        <translation>保存报告(&amp;R)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Save a report of the session as one self-contained HTML file</source>
        <translation>将会话报告保存为一个自包含的 HTML 文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Export &amp;Training Data…</source>
        <translation>导出训练数据(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Save the model's answers of the session as JSON lines for training</source>
        <translation>将本会话中模型的回答保存为用于训练的 JSON 行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Verify Collection…</source>
        <translation>验证集合(&amp;V)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Re-measure a collection of kernels (a paper's release, a KernelBench run) and see which claims hold</source>
        <translation>重新测量一个内核集合（论文发布的内核、KernelBench 运行），查看哪些声称成立</translation>
    </message>
    <message>
        <location line="+2" />
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+3" />
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>R&amp;eplace…</source>
        <translation>替换(&amp;E)…</translation>
    </message>
    <message>
        <location line="+5" />
        <source>&amp;Compare with Reference</source>
        <translation>与参考实现比较(&amp;C)</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Show the differences between the reference and the current tab</source>
        <translation>显示参考实现与当前标签页之间的差异</translation>
    </message>
    <message>
        <location line="+2" />
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Settings → &amp;Workers…</source>
        <translation>设置 → 工作进程(&amp;W)…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Add, change or test the GPU workers that evaluate kernels</source>
        <translation>添加、更改或测试评估内核的 GPU 工作进程</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Getting Started</source>
        <translation>入门(&amp;G)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>A short guide, and an example session measured on an H200 to look around in</source>
        <translation>简短指南，以及一个在 H200 上实测、可供浏览的示例会话</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;About KForge</source>
        <translation>关于 KForge(&amp;A)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <location line="+32" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+13" />
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+15" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+6" />
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location line="+4" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Main Tool Bar</source>
        <translation>主工具栏</translation>
    </message>
</context>
<context>
    <name>kforge::MainWindow</name>
    <message>
        <location filename="../app/gui/mainwindow.cpp" line="+191" />
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+16" />
        <source>The new language is used from the next start of KForge.</source>
        <translation>新语言将在下次启动 KForge 时生效。</translation>
    </message>
    <message>
        <location line="+76" />
        <source>Round %1 finished.</source>
        <translation>第 %1 轮已完成。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Round %1: %2</source>
        <translation>第 %1 轮：%2</translation>
    </message>
    <message>
        <location line="+42" />
        <source>The last session, %1, no longer exists: open a task folder or a session to go on.</source>
        <translation>上次的会话 %1 已不存在：请打开任务文件夹或会话以继续。</translation>
    </message>
    <message>
        <location line="+21" />
        <source>The last session could not be reopened: %1</source>
        <translation>无法重新打开上次的会话：%1</translation>
    </message>
    <message>
        <location line="+5" />
        <location line="+21" />
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 — KForge</source>
        <translation>%1 — KForge</translation>
    </message>
    <message>
        <location line="+64" />
        <source>About KForge</source>
        <translation>关于 KForge</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&lt;h3&gt;KForge %1&lt;/h3&gt;&lt;p&gt;A workbench for making CUDA kernels faster with a language model in the loop: the model is shown earlier variants with their measured speedups and profiles, explains why the faster ones are faster, and writes a better kernel. You steer every round and see why variant A beats B.&lt;/p&gt;&lt;p&gt;Kernels are compiled with nvcc and run only in a separate worker process, locally or on a GPU host.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;KForge %1&lt;/h3&gt;&lt;p&gt;借助语言模型让 CUDA 内核更快的工作台：模型会看到此前的变体及其实测加速比和性能剖析，解释更快的变体为何更快，然后写出更好的内核。每一轮都由你掌控，并能看清变体 A 为何胜过 B。&lt;/p&gt;&lt;p&gt;内核由 nvcc 编译，只在独立的工作进程中运行，可在本机或 GPU 主机上。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>kforge::MeasurementFigures</name>
    <message>
        <location filename="../core/eval/measurementfigures.cpp" line="+50" />
        <source>the candidate was not measured (%1)</source>
        <translation>候选内核未测量（%1）</translation>
    </message>
    <message>
        <location line="+14" />
        <source>the result holds no timing</source>
        <translation>结果中没有计时数据</translation>
    </message>
    <message>
        <location line="+50" />
        <source>the evaluation ran without the metrics pass</source>
        <translation>评测运行时未进行指标采集</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the worker sent no metrics for the candidate</source>
        <translation>工作进程没有发送候选内核的指标</translation>
    </message>
    <message>
        <location line="+4" />
        <source>the profiler gave no reason</source>
        <translation>性能分析器未给出原因</translation>
    </message>
    <message>
        <location line="+6" />
        <source>no kernel was profiled</source>
        <translation>没有内核被性能分析</translation>
    </message>
    <message>
        <location line="+46" />
        <source>the evaluation ran without a kernel trace</source>
        <translation>评测运行时未进行内核跟踪</translation>
    </message>
    <message>
        <location line="+4" />
        <source>the tracer gave no reason</source>
        <translation>跟踪器未给出原因</translation>
    </message>
</context>
<context>
    <name>kforge::MeasurementText</name>
    <message>
        <location filename="../views/variants/measurementtext.cpp" line="+20" />
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+2" />
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+2" />
        <source>latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+2" />
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+7" />
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <location line="+2" />
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <location line="+2" />
        <source>latency-bound</source>
        <translation>延迟受限</translation>
    </message>
    <message>
        <location line="+2" />
        <source>of unknown bound</source>
        <translation>瓶颈未知</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1-bound</source>
        <translation>%1 受限</translation>
    </message>
    <message>
        <location line="+7" />
        <source>degenerate</source>
        <translation>退化</translation>
    </message>
    <message>
        <location line="+2" />
        <source>below speed of light</source>
        <translation>低于光速上限</translation>
    </message>
    <message>
        <location line="+2" />
        <source>beats FLOP floor</source>
        <translation>突破 FLOP 下限</translation>
    </message>
    <message>
        <location line="+2" />
        <source>side-stream work</source>
        <translation>旁路流工作</translation>
    </message>
    <message>
        <location line="+2" />
        <source>late work</source>
        <translation>延迟工作</translation>
    </message>
    <message>
        <location line="+2" />
        <source>device settings changed</source>
        <translation>设备设置已更改</translation>
    </message>
    <message>
        <location line="+2" />
        <source>GPU contention</source>
        <translation>GPU 争用</translation>
    </message>
    <message>
        <location line="+2" />
        <source>profile refused</source>
        <translation>拒绝性能剖析</translation>
    </message>
    <message>
        <location line="+2" />
        <source>unstable timing</source>
        <translation>计时不稳定</translation>
    </message>
    <message>
        <location line="+2" />
        <source>reference mutates its inputs</source>
        <translation>参考实现修改了其输入</translation>
    </message>
    <message>
        <location line="+2" />
        <source>scripted</source>
        <translation>脚本化</translation>
    </message>
    <message>
        <location line="+2" />
        <source>passed the deep check</source>
        <translation>已通过深度检查</translation>
    </message>
    <message>
        <location line="+2" />
        <source>held for review</source>
        <translation>待审核</translation>
    </message>
</context>
<context>
    <name>kforge::ModelNewExporter</name>
    <message>
        <location filename="../core/export/modelnewexporter.cpp" line="+110" />
        <source>variant %1 is a PyTorch ModelNew module, but its task is not a PyTorch task (a task.json of kind "torch")</source>
        <translation>变体 %1 是 PyTorch ModelNew 模块，但它的任务不是 PyTorch 任务（task.json 的 kind 应为 "torch"）</translation>
    </message>
    <message>
        <location line="-48" />
        <source>the task's task.json cannot be read: %1</source>
        <translation>无法读取任务的 task.json：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>variant %1 has no source</source>
        <translation>变体 %1 没有源代码</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the task %1 has no reference source</source>
        <translation>任务 %1 没有参考实现源代码</translation>
    </message>
</context>
<context>
    <name>kforge::NoticeBar</name>
    <message>
        <location filename="../app/gui/noticebar.cpp" line="+26" />
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>kforge::PairSession</name>
    <message>
        <location filename="../core/collection/pairsession.cpp" line="+27" />
        <source>the problem of %1 was not imported: there is no task to open</source>
        <translation>%1 的问题未导入：没有可打开的任务</translation>
    </message>
    <message>
        <location line="+4" />
        <source>cannot make the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location line="+7" />
        <source>cannot make a session for %1: %2</source>
        <translation>无法为 %1 创建会话：%2</translation>
    </message>
    <message>
        <location line="+10" />
        <source>From the collection %1: %2</source>
        <translation>来自集合 %1：%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Claimed speedup: %1×</source>
        <translation>声称的加速比：%1×</translation>
    </message>
</context>
<context>
    <name>kforge::PanelDocks</name>
    <message>
        <location filename="../app/gui/paneldocks.cpp" line="+28" />
        <source>Round Control</source>
        <translation>轮次控制</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Variants</source>
        <translation>变体</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Assembly</source>
        <translation>汇编</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Collection</source>
        <translation>集合</translation>
    </message>
</context>
<context>
    <name>kforge::PathOpener</name>
    <message>
        <location filename="../app/gui/pathopener.cpp" line="+51" />
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Imported the PyTorch problem as %1</source>
        <translation>已将 PyTorch 问题导入为 %1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Could not import %1</source>
        <translation>无法导入 %1</translation>
    </message>
</context>
<context>
    <name>kforge::PoolEvaluator</name>
    <message>
        <location filename="../core/workerpool/poolevaluator.cpp" line="+32" />
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+138" />
        <source>The evaluator has no compiler or worker pool.</source>
        <translation>评测器没有编译器或工作进程池。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>No task was given for the evaluation.</source>
        <translation>评测未指定任务。</translation>
    </message>
    <message>
        <location line="+93" />
        <source>The task's reference does not compile: %1
%2</source>
        <translation>任务的参考实现无法编译：%1
%2</translation>
    </message>
    <message>
        <location line="+51" />
        <source>The evaluation was cancelled.</source>
        <translation>评测已取消。</translation>
    </message>
</context>
<context>
    <name>kforge::PriceTable</name>
    <message>
        <location filename="../core/llm/pricetable.cpp" line="+63" />
        <source>The price table is not a JSON object: %1</source>
        <translation>价格表不是 JSON 对象：%1</translation>
    </message>
    <message>
        <location line="+11" />
        <source>The price of '%1' needs non-negative numbers "input" and "output" ($ per million tokens).</source>
        <translation>“%1”的价格需要非负数值“input”和“output”（每百万令牌的美元价格）。</translation>
    </message>
</context>
<context>
    <name>kforge::ProblemFolderReader</name>
    <message>
        <location filename="../core/collection/problemfolderreader.cpp" line="+52" />
        <source>no problem file (*.py) in this folder or its subfolders</source>
        <translation>此文件夹及其子文件夹中没有问题文件（*.py）</translation>
    </message>
    <message>
        <location line="+9" />
        <source>not a candidate (a .py module or a .cu kernel): left out</source>
        <translation>不是候选（.py 模块或 .cu 内核）：已跳过</translation>
    </message>
    <message>
        <location line="+5" />
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location line="+8" />
        <source>defines no class ModelNew: a candidate module defines ModelNew with the problem's constructor and forward</source>
        <translation>没有定义 class ModelNew：候选模块应定义与问题的构造函数和 forward 一致的 ModelNew</translation>
    </message>
    <message>
        <location line="+2" />
        <source>has no KF_ENTRY: a .cu candidate exports kforge/kernel.h's entry</source>
        <translation>没有 KF_ENTRY：.cu 候选应导出 kforge/kernel.h 的入口</translation>
    </message>
    <message>
        <location line="+7" />
        <source>named like several problems (%1): rename it after one</source>
        <translation>名称与多个问题相同（%1）：请按其中一个重命名</translation>
    </message>
    <message>
        <location line="+7" />
        <source>pairs with no problem: no problem is named %1 and the name holds no problem number (19_..., level1_19_..., problem_19)</source>
        <translation>无法配对：没有名为 %1 的问题，且名称中不含问题编号（19_...、level1_19_...、problem_19）</translation>
    </message>
    <message>
        <location line="+8" />
        <source>pairs with no problem: level %1 has no problem numbered %2</source>
        <translation>无法配对：第 %1 级中没有编号为 %2 的问题</translation>
    </message>
    <message>
        <location line="+1" />
        <source>pairs with no problem: no problem is numbered %1</source>
        <translation>无法配对：没有编号为 %1 的问题</translation>
    </message>
    <message>
        <location line="+4" />
        <source>ambiguous: problem %1 is in several levels (%2); name the level (a level1/ folder or a level1_ prefix)</source>
        <translation>有歧义：问题 %1 出现在多个级别中（%2）；请指明级别（level1/ 文件夹或 level1_ 前缀）</translation>
    </message>
    <message>
        <location line="+14" />
        <source>its problem %1 is empty or cannot be read</source>
        <translation>它的问题 %1 为空或无法读取</translation>
    </message>
    <message>
        <location line="+15" />
        <source>no candidate pairs with this problem</source>
        <translation>没有候选与此问题配对</translation>
    </message>
</context>
<context>
    <name>kforge::PromptBuilder</name>
    <message>
        <location filename="../core/optimizer/promptbuilder.cpp" line="+338" />
        <source>Prompt template "%1": %2</source>
        <translation>提示词模板“%1”：%2</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Prompt template %1: %2</source>
        <translation>提示词模板 %1：%2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>No measured variant to show the model: evaluate the reference first</source>
        <translation>没有可展示给模型的已测量变体：请先评测参考实现</translation>
    </message>
</context>
<context>
    <name>kforge::PromptTemplate</name>
    <message>
        <location filename="../core/optimizer/prompttemplate.cpp" line="+54" />
        <source>line %1: "{{" without "}}"</source>
        <translation>第 %1 行：“{{”缺少对应的“}}”</translation>
    </message>
    <message>
        <location line="+28" />
        <source>line %1: empty tag</source>
        <translation>第 %1 行：空标签</translation>
    </message>
    <message>
        <location line="+10" />
        <source>line %1: {{/%2}} closes no section</source>
        <translation>第 %1 行：{{/%2}} 没有可关闭的区段</translation>
    </message>
    <message>
        <location line="+1" />
        <source>line %1: {{/%2}} closes {{#%3}} of line %4</source>
        <translation>第 %1 行：{{/%2}} 关闭的是第 %4 行的 {{#%3}}</translation>
    </message>
    <message>
        <location line="+12" />
        <source>line %1: {{#%2}} is never closed</source>
        <translation>第 %1 行：{{#%2}} 没有关闭</translation>
    </message>
    <message>
        <location line="+28" />
        <source>line %1: no value for {{%2}}</source>
        <translation>第 %1 行：{{%2}} 没有值</translation>
    </message>
    <message>
        <location line="+93" />
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+18" />
        <source>there is no prompt template named "%1"</source>
        <translation>没有名为“%1”的提示词模板</translation>
    </message>
</context>
<context>
    <name>kforge::PromptView</name>
    <message>
        <location filename="../views/roundcontrol/promptview.cpp" line="+23" />
        <source>Open in Window</source>
        <translation>在窗口中打开</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Read the prompt in a window of its own, as large as you like</source>
        <translation>在单独的窗口中阅读提示词，大小随意</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Each candidate has its own prompt: choose which one to read</source>
        <translation>每个候选都有自己的提示词：选择要查看的那一个</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Preview the prompt, or turn on review to edit it before a round sends it.</source>
        <translation>预览提示词，或开启审阅以便在轮次发送前编辑它。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <location line="+49" />
        <source>No prompt shown. Preview Prompt renders the one a round would send; choosing a candidate in Rounds shows the one it received.</source>
        <translation>未显示提示词。“预览提示词”会生成一个轮次将要发送的提示词；在“轮次”中选择一个候选可查看它收到的提示词。</translation>
    </message>
    <message>
        <location line="+56" />
        <source>Prompt — %1</source>
        <translation>提示词 — %1</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>kforge::PtxModel</name>
    <message>
        <location filename="../views/assembly/ptxmodel.cpp" line="+88" />
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Line</source>
        <translation>行</translation>
    </message>
</context>
<context>
    <name>kforge::PythonSyntaxCheck</name>
    <message>
        <location filename="../core/compile/pythonsyntaxcheck.cpp" line="+52" />
        <source>no python3 found to check the module's syntax</source>
        <translation>未找到可检查模块语法的 python3</translation>
    </message>
    <message>
        <location line="+11" />
        <source>%1 could not check the module: %2</source>
        <translation>%1 无法检查该模块：%2</translation>
    </message>
    <message>
        <location line="+20" />
        <source>%1 could not be started: %2</source>
        <translation>%1 无法启动：%2</translation>
    </message>
</context>
<context>
    <name>kforge::ReadOnlyBar</name>
    <message>
        <location filename="../views/editor/readonlybar.cpp" line="+26" />
        <source>F&amp;ork to Edit</source>
        <translation>派生后编辑(&amp;O)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Open an editable copy of this kernel as a new variant</source>
        <translation>将此内核的可编辑副本作为新变体打开</translation>
    </message>
    <message>
        <location line="+15" />
        <source>The reference defines what is correct and is read-only.</source>
        <translation>参考实现定义了何为正确，因此为只读。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>This variant has been evaluated and is read-only.</source>
        <translation>此变体已评估，为只读。</translation>
    </message>
</context>
<context>
    <name>kforge::ReadinessIndicators</name>
    <message>
        <location filename="../app/gui/readinessindicators.cpp" line="+46" />
        <source>Looking for nvcc…</source>
        <translation>正在查找 nvcc…</translation>
    </message>
    <message>
        <location line="+8" />
        <source>nvcc %1</source>
        <translation>nvcc %1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>CUDA compiler: %1 (%2)</source>
        <translation>CUDA 编译器：%1（%2）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No CUDA compiler</source>
        <translation>没有 CUDA 编译器</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Compiling and evaluating need a CUDA toolkit (nvcc) or a configured GPU worker — Settings → Workers.</source>
        <translation>编译和评测需要 CUDA 工具包（nvcc）或已配置的 GPU 工作进程——设置 → 工作进程。</translation>
    </message>
</context>
<context>
    <name>kforge::ReasoningEntriesModel</name>
    <message>
        <location filename="../views/reasoning/reasoningentriesmodel.cpp" line="+24" />
        <source>streaming, %1 characters</source>
        <translation>正在流式接收，%1 个字符</translation>
    </message>
    <message>
        <location line="+2" />
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>cut off at the token limit, %1 characters</source>
        <translation>达到令牌上限被截断，%1 个字符</translation>
    </message>
    <message>
        <location line="+2" />
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
</context>
<context>
    <name>kforge::ReasoningPanel</name>
    <message>
        <location filename="../views/reasoning/reasoningpanel.cpp" line="+82" />
        <location line="+214" />
        <source>No answer yet</source>
        <translation>尚无回答</translation>
    </message>
    <message>
        <location line="-213" />
        <source>Every answer of the session: the rounds' answers, their repairs and the questions about pairs, oldest first</source>
        <translation>会话中的所有回答：各轮次的回答、修复回答以及关于变体对的提问，按时间先后排列</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Follow live</source>
        <translation>实时跟随</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Show each new answer as it starts streaming</source>
        <translation>每个新回答开始流式传输时即显示它</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Whole answer</source>
        <translation>完整回答</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Show the answer as the model wrote it, code included, instead of the parsed analysis and design</source>
        <translation>按模型原样显示回答（包括代码），而不是解析后的分析和设计</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Show Prompt</source>
        <translation>显示提示词</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The exact prompt this answer was given</source>
        <translation>此回答所用的确切提示词</translation>
    </message>
    <message>
        <location line="+23" />
        <source>The model's analysis and design appear here while a round streams, or when you select a variant.</source>
        <translation>轮次流式进行时，或选择某个变体时，模型的分析和设计会显示在这里。</translation>
    </message>
    <message>
        <location line="+113" />
        <location line="+23" />
        <location line="+11" />
        <source>Answer %1</source>
        <translation>回答 %1</translation>
    </message>
    <message>
        <location line="-32" />
        <location line="+27" />
        <source>Why #%1 beats #%2</source>
        <translation>#%1 为何胜过 #%2</translation>
    </message>
    <message>
        <location line="-24" />
        <location line="+27" />
        <source>Round %1 · repair</source>
        <translation>第 %1 轮 · 修复</translation>
    </message>
    <message>
        <location line="-26" />
        <location line="+27" />
        <source>Round %1 · repair of #%2</source>
        <translation>第 %1 轮 · 修复 #%2</translation>
    </message>
    <message>
        <location line="-10" />
        <location line="+11" />
        <source>Round %1 · answer %2</source>
        <translation>第 %1 轮 · 回答 %2</translation>
    </message>
    <message>
        <location line="+34" />
        <source>Answers in this session: %1 — choose one</source>
        <translation>本会话中的回答：%1 — 请选择一个</translation>
    </message>
    <message>
        <location line="+171" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+33" />
        <source>variant #%1</source>
        <translation>变体 #%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+21" />
        <source>**The answer failed:** %1</source>
        <translation>**回答失败：** %1</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <location line="+4" />
        <source>*Variant #%1 has no analysis or design: it was not written by the model.*</source>
        <translation>*变体 #%1 没有分析或设计：它不是由模型编写的。*</translation>
    </message>
    <message>
        <location line="+14" />
        <source>Reasoning (none)</source>
        <translation>推理（无）</translation>
    </message>
    <message numerus="yes">
        <location line="+1" />
        <source>Reasoning (%n character(s))</source>
        <translation>
            <numerusform>推理（%n 个字符）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::ReleasedJsonReader</name>
    <message>
        <location filename="../core/collection/releasedjsonreader.cpp" line="+73" />
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>%1 is not JSON: %2 at offset %3</source>
        <translation>%1 不是 JSON：偏移 %3 处 %2</translation>
    </message>
    <message>
        <location line="+13" />
        <source>not a list of records: left out</source>
        <translation>不是记录列表：已跳过</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1 holds no list of records (a list, or an object of lists such as {"level1": [...]})</source>
        <translation>%1 中没有记录列表（应为列表，或由列表组成的对象，例如 {"level1": [...]}）</translation>
    </message>
    <message>
        <location line="+13" />
        <source>not a record (an object with %1, %2, %3 and %4)</source>
        <translation>不是记录（应为包含 %1、%2、%3 和 %4 的对象）</translation>
    </message>
    <message>
        <location line="+15" />
        <source>the reference's code (%1) is empty</source>
        <translation>参考实现的代码（%1）为空</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no reference code: the record has no field %1 (name another with --map ref_code=FIELD)</source>
        <translation>没有参考实现代码：记录中没有字段 %1（可用 --map ref_code=FIELD 指定其他字段）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>the candidate's code (%1) is empty</source>
        <translation>候选的代码（%1）为空</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no candidate code: the record has no field %1 (name another with --map custom_code=FIELD)</source>
        <translation>没有候选代码：记录中没有字段 %1（可用 --map custom_code=FIELD 指定其他字段）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>the reference's code defines no class Model (KernelBench's format: class Model, get_inputs(), get_init_inputs())</source>
        <translation>参考实现的代码没有定义 class Model（KernelBench 格式：class Model、get_inputs()、get_init_inputs()）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>the candidate's code defines no class ModelNew and no KF_ENTRY</source>
        <translation>候选的代码既没有定义 class ModelNew，也没有 KF_ENTRY</translation>
    </message>
    <message>
        <location line="+8" />
        <source>the claimed speedup (%1) %2 is not a number: no claim</source>
        <translation>声称的加速比（%1）%2 不是数字：视为没有声称</translation>
    </message>
</context>
<context>
    <name>kforge::ReportSource</name>
    <message>
        <location filename="../core/export/reportinput.cpp" line="+32" />
        <source>the session has no task</source>
        <translation>会话没有任务</translation>
    </message>
</context>
<context>
    <name>kforge::RequestBuilder</name>
    <message>
        <location filename="../core/llm/requestbuilder.cpp" line="+162" />
        <source>The endpoint has no base URL.</source>
        <translation>端点没有基础 URL。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>'%1' is not an http:// or https:// URL.</source>
        <translation>“%1”不是 http:// 或 https:// URL。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No model given, and endpoint '%1' has no default model.</source>
        <translation>未指定模型，且端点“%1”没有默认模型。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The request has no message.</source>
        <translation>请求中没有消息。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No API key for endpoint '%1'.</source>
        <translation>端点“%1”没有 API 密钥。</translation>
    </message>
</context>
<context>
    <name>kforge::ResponseParser</name>
    <message>
        <location filename="../core/optimizer/responseparser.cpp" line="+277" />
        <source>%1 code blocks define KF_ENTRY or ModelNew; used the one at line %2</source>
        <translation>%1 个代码块定义了 KF_ENTRY 或 ModelNew；使用第 %2 行的那个</translation>
    </message>
    <message>
        <location line="+5" />
        <source>the code does not include "kforge/kernel.h"</source>
        <translation>代码没有包含“kforge/kernel.h”</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the answer was cut off inside its code block (line %1 opens a block that never closes)</source>
        <translation>回答在代码块内被截断（第 %1 行开始的代码块没有结束）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>the answer is empty</source>
        <translation>回答为空</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the answer has no code block</source>
        <translation>回答中没有代码块</translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>no code block defines KF_ENTRY or class ModelNew (%n block(s) in the answer)</source>
        <translation>
            <numerusform>没有代码块定义 KF_ENTRY 或 class ModelNew（回答中共 %n 个代码块）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4" />
        <source>the model stopped at its token limit</source>
        <translation>模型在达到令牌上限时停止</translation>
    </message>
    <message>
        <location line="+77" />
        <source>no performance analysis</source>
        <translation>没有性能分析</translation>
    </message>
    <message>
        <location line="+2" />
        <source>no algorithm design</source>
        <translation>没有算法设计</translation>
    </message>
</context>
<context>
    <name>kforge::ResultsLog</name>
    <message>
        <location filename="../core/collection/resultslog.cpp" line="+28" />
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+10" />
        <source>cannot truncate %1: %2</source>
        <translation>无法截断 %1：%2</translation>
    </message>
    <message>
        <location line="+41" />
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::RooflineChart</name>
    <message>
        <location filename="../views/charts/rooflinechart.cpp" line="+32" />
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <location line="+18" />
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Performance (GFLOP/s)</source>
        <translation>性能（GFLOP/s）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Wheel: zoom. Drag: pan. Double-click: fit the view. Hover over a point for its figures.</source>
        <translation>滚轮：缩放。拖动：平移。双击：适应视图。将鼠标悬停在点上可查看其数值。</translation>
    </message>
    <message>
        <location line="+67" />
        <source>No session is open</source>
        <translation>没有打开的会话</translation>
    </message>
    <message>
        <location line="+46" />
        <source>%1: %2 FLOP/byte, %3 GFLOP/s</source>
        <translation>%1：%2 FLOP/字节，%3 GFLOP/s</translation>
    </message>
    <message>
        <location line="+3" />
        <source>, %1% of the roof above it</source>
        <translation>，为其上方屋顶的 %1%</translation>
    </message>
    <message>
        <location line="+3" />
        <source>, %1-bound</source>
        <translation>，%1 受限</translation>
    </message>
    <message>
        <location line="+10" />
        <source>%1 kernels</source>
        <translation>%1 的内核</translation>
    </message>
    <message>
        <location line="+10" />
        <source>%1, kernel %2</source>
        <translation>%1，内核 %2</translation>
    </message>
    <message>
        <location line="+10" />
        <source>%1 whole task</source>
        <translation>%1 整个任务</translation>
    </message>
    <message>
        <location line="+6" />
        <source>#%1 task</source>
        <translation>#%1 任务</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1, whole task (FLOP and byte formulas)</source>
        <translation>%1，整个任务（按 FLOP 与字节公式）</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Select measured variants to place their kernels on the roofline</source>
        <translation>选择已测量的变体，将其内核标在屋顶线模型上</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The selected variants have no roofline data (no FLOP and byte counts)</source>
        <translation>所选变体没有屋顶线数据（没有 FLOP 和字节计数）</translation>
    </message>
    <message>
        <location line="+44" />
        <source>memory roof %1 GB/s</source>
        <translation>内存屋顶 %1 GB/s</translation>
    </message>
    <message>
        <location line="+4" />
        <source>FP32 roof %1</source>
        <translation>FP32 屋顶 %1</translation>
    </message>
    <message>
        <location line="+4" />
        <source> on %1</source>
        <translation>（%1 上）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>measured: %1 GB/s</source>
        <translation>实测：%1 GB/s</translation>
    </message>
    <message>
        <location line="+3" />
        <source>FP32 roof, measured%1: %2</source>
        <translation>FP32 屋顶，实测%1：%2</translation>
    </message>
    <message>
        <location line="+10" />
        <source>No device peaks measured: the roofs are missing</source>
        <translation>未测量设备峰值：缺少屋顶线</translation>
    </message>
</context>
<context>
    <name>kforge::RoundControlPanel</name>
    <message>
        <location filename="../views/roundcontrol/roundcontrolpanel.cpp" line="+33" />
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location line="+1" />
        <source>measuring the reference</source>
        <translation>正在测量参考实现</translation>
    </message>
    <message>
        <location line="+1" />
        <source>choosing exemplars</source>
        <translation>正在选择示例</translation>
    </message>
    <message>
        <location line="+1" />
        <source>waiting for you to send the prompt</source>
        <translation>等待你发送提示词</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the model is answering</source>
        <translation>模型正在回答</translation>
    </message>
    <message>
        <location line="+1" />
        <source>evaluating the answers</source>
        <translation>正在评测回答</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+14" />
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="-13" />
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <location line="+8" />
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1" />
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+1" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1" />
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location line="+1" />
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+8" />
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <location line="+42" />
        <source>Preview Prompt</source>
        <translation>预览提示词</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Start Round</source>
        <translation>开始轮次</translation>
    </message>
    <message>
        <location line="+3" />
        <location line="+238" />
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="-237" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Resume Interrupted Round</source>
        <translation>恢复中断的轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Continue the round a previous KForge left unfinished</source>
        <translation>继续之前的 KForge 未完成的轮次</translation>
    </message>
    <message>
        <location line="+21" />
        <source>Setup</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+468" />
        <location line="+51" />
        <source>Rounds</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="-518" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+518" />
        <source>Rounds (%1)</source>
        <translation>轮次（%1）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>No round yet: Start Round sends the first prompt.</source>
        <translation>还没有轮次：“开始轮次”会发送第一个提示词。</translation>
    </message>
    <message>
        <location line="-510" />
        <source>%v of %m candidates done</source>
        <translation>已完成 %v / %m 个候选</translation>
    </message>
    <message>
        <location line="+110" />
        <source>No interrupted round is left to resume.</source>
        <translation>没有可恢复的中断轮次。</translation>
    </message>
    <message>
        <location line="-43" />
        <location line="+428" />
        <source>Round %1 %2.</source>
        <translation>第 %1 轮%2。</translation>
    </message>
    <message>
        <location line="-427" />
        <location line="+428" />
        <source>Round %1 %2: %3</source>
        <translation>第 %1 轮%2：%3</translation>
    </message>
    <message>
        <location line="-371" />
        <source>No session is open — open a task folder or a session file to run rounds.</source>
        <translation>没有打开的会话——请打开任务文件夹或会话文件以运行轮次。</translation>
    </message>
    <message>
        <location line="+2" />
        <source> — &lt;a href="workers"&gt;Settings → Workers&lt;/a&gt;</source>
        <translation> — &lt;a href="workers"&gt;设置 → 工作进程&lt;/a&gt;</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No endpoint configured — &lt;a href="endpoints"&gt;Settings → Models&lt;/a&gt;</source>
        <translation>未配置端点——&lt;a href="endpoints"&gt;设置 → 模型&lt;/a&gt;</translation>
    </message>
    <message>
        <location line="+89" />
        <source>Configure an endpoint first.</source>
        <translation>请先配置端点。</translation>
    </message>
    <message>
        <location line="+83" />
        <source>No endpoint configured: add one in Settings → Models.</source>
        <translation>未配置端点：请在“设置 → 模型”中添加。</translation>
    </message>
    <message>
        <location line="-170" />
        <source>The workbench has no round runner: rounds cannot run here.</source>
        <translation>工作台没有轮次运行器：无法在此运行轮次。</translation>
    </message>
    <message>
        <location line="+72" />
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Open a session with a task first.</source>
        <translation>请先打开一个包含任务的会话。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>A round is running.</source>
        <translation>有轮次正在运行。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Round %1: %2</source>
        <translation>第 %1 轮：%2</translation>
    </message>
    <message>
        <location line="+22" />
        <source>Tokens: %1 this round, %2 in the session (%3 requests) · cost %4 this round, %5 in the session</source>
        <translation>令牌：本轮 %1，会话共 %2（%3 次请求）· 费用：本轮 %4，会话共 %5</translation>
    </message>
    <message>
        <location line="+21" />
        <source>No API key for %1: %2</source>
        <translation>%1 没有 API 密钥：%2</translation>
    </message>
    <message>
        <location line="+35" />
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="+15" />
        <source>The round did not start: %1</source>
        <translation>轮次未能开始：%1</translation>
    </message>
    <message>
        <location line="+34" />
        <source>Preview: each candidate draws its own exemplars, the best so far always among them; a round draws again, so they may differ.</source>
        <translation>预览：每个候选各自抽取示例，迄今最佳的变体总在其中；轮次会重新抽取，因此可能有所不同。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Preview: a round draws its own exemplars, so they may differ.</source>
        <translation>预览：轮次会自行抽取示例，因此可能有所不同。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Preview: no measured variant yet; the first round measures the reference and shows it.</source>
        <translation>预览：尚无已测量的变体；第一轮会测量参考实现并展示它。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The prompt did not render: %1</source>
        <translation>提示词渲染失败：%1</translation>
    </message>
    <message>
        <location line="+19" />
        <source>round %1, %2</source>
        <translation>第 %1 轮，%2</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The prompt %1 received</source>
        <translation>%1 收到的提示词</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The prompt %1 received; exemplars %2</source>
        <translation>%1 收到的提示词；示例 %2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Candidate %1 of %2: exemplars %3</source>
        <translation>候选 %1/%2：示例 %3</translation>
    </message>
    <message>
        <location line="+25" />
        <source>Review the prompts (one per candidate); edit any of them if you like, then Send.</source>
        <translation>请审阅提示词（每个候选一个）；可按需编辑其中任意一个，然后点击“发送”。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Review the prompt; edit it if you like, then Send.</source>
        <translation>请审阅提示词；可按需编辑，然后点击“发送”。</translation>
    </message>
    <message>
        <location line="+13" />
        <source>Sent prompt</source>
        <translation>已发送的提示词</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Sent prompts</source>
        <translation>已发送的提示词</translation>
    </message>
</context>
<context>
    <name>kforge::RoundHistoryModel</name>
    <message>
        <location filename="../views/roundcontrol/roundhistorymodel.cpp" line="+16" />
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1" />
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+1" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1" />
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location line="+1" />
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1" />
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+134" />
        <source>Rounds: %1 · answers: %2 · correct variants: %3</source>
        <translation>轮次：%1 · 回答：%2 · 正确变体：%3</translation>
    </message>
    <message>
        <location line="+3" />
        <source>best %1× (#%2, round %3)</source>
        <translation>最佳 %1×（#%2，第 %3 轮）</translation>
    </message>
    <message>
        <location line="+27" />
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1× (#%2)</source>
        <translation>%1×（#%2）</translation>
    </message>
    <message>
        <location line="+10" />
        <source>%1 answers, then %2 answers to repair requests</source>
        <translation>%1 个回答，之后有 %2 个针对修复请求的回答</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Variants of this round measured correct, of those its answers produced</source>
        <translation>本轮回答产生的变体中经测量正确的数量</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The fastest correct variant of this round</source>
        <translation>本轮最快的正确变体</translation>
    </message>
    <message>
        <location line="+17" />
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Tokens</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
</context>
<context>
    <name>kforge::RoundProgressModel</name>
    <message>
        <location filename="../views/roundcontrol/roundprogressmodel.cpp" line="+113" />
        <location line="+91" />
        <source>repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <location line="-90" />
        <location line="+90" />
        <source>repair of #%1</source>
        <translation>修复 #%1</translation>
    </message>
    <message>
        <location line="-89" />
        <location line="+90" />
        <source>answer %1</source>
        <translation>回答 %1</translation>
    </message>
    <message>
        <location line="-127" />
        <source>the answer was interrupted</source>
        <translation>回答被中断</translation>
    </message>
    <message>
        <location line="+89" />
        <source>#%1 (%2×)</source>
        <translation>#%1（%2×）</translation>
    </message>
    <message>
        <location line="+44" />
        <source>generating (%1 characters)</source>
        <translation>正在生成（%1 个字符）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>no code in the answer</source>
        <translation>回答中没有代码</translation>
    </message>
    <message>
        <location line="+0" />
        <source>no variant: %1</source>
        <translation>无变体：%1</translation>
    </message>
    <message>
        <location line="+42" />
        <source>The measured variants this candidate's prompt showed the model</source>
        <translation>此候选的提示词向模型展示的已测量变体</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Tokens</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Exemplars</source>
        <translation>示例</translation>
    </message>
</context>
<context>
    <name>kforge::RoundRunner</name>
    <message>
        <location filename="../core/optimizer/roundrunner.cpp" line="+158" />
        <source>round budget: %1</source>
        <translation>轮次预算：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>session budget: %1</source>
        <translation>会话预算：%1</translation>
    </message>
    <message>
        <location line="+39" />
        <source>Open a session with a task first.</source>
        <translation>请先打开一个包含任务的会话。</translation>
    </message>
    <message>
        <location line="+2" />
        <location line="+290" />
        <source>A round is already running.</source>
        <translation>已有轮次正在运行。</translation>
    </message>
    <message>
        <location line="-286" />
        <source>A round needs at least one candidate.</source>
        <translation>一个轮次至少需要一个候选。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The session budget is spent: %1</source>
        <translation>会话预算已用完：%1</translation>
    </message>
    <message>
        <location line="+32" />
        <source>The session has no reference variant.</source>
        <translation>会话没有参考实现变体。</translation>
    </message>
    <message>
        <location line="+18" />
        <source>The reference itself did not verify (%1): %2</source>
        <translation>参考实现本身未通过验证（%1）：%2</translation>
    </message>
    <message>
        <location line="+23" />
        <source>No correct, measured variant to show the model.</source>
        <translation>没有正确且已测量的变体可展示给模型。</translation>
    </message>
    <message>
        <location line="+35" />
        <source>The prompt was not sent.</source>
        <translation>提示词未发送。</translation>
    </message>
    <message>
        <location line="+94" />
        <location line="+57" />
        <source>Stopped by the user.</source>
        <translation>已被用户停止。</translation>
    </message>
    <message>
        <location line="-55" />
        <source>No answer arrived.</source>
        <translation>没有收到回答。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Stopped early: %1</source>
        <translation>提前停止：%1</translation>
    </message>
    <message>
        <location line="+60" />
        <source>Not evaluated: the round was stopped.</source>
        <translation>未评测：轮次已停止。</translation>
    </message>
    <message>
        <location line="+14" />
        <source>Open a session first.</source>
        <translation>请先打开会话。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>There is no round %1 in this session.</source>
        <translation>此会话中没有第 %1 轮。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Round %1 is %2; only an interrupted round can be resumed.</source>
        <translation>第 %1 轮的状态为%2；只能恢复中断的轮次。</translation>
    </message>
    <message>
        <location line="+40" />
        <source>The process ended while this answer was streaming.</source>
        <translation>此回答流式传输期间进程结束了。</translation>
    </message>
    <message>
        <location filename="../core/optimizer/llmexchange.cpp" line="+42" />
        <source>the answer did not arrive complete</source>
        <translation>回答未完整到达</translation>
    </message>
    <message>
        <location filename="../core/optimizer/roundrunner.cpp" line="+174" />
        <source>The reference could not be measured: %1</source>
        <translation>无法测量参考实现：%1</translation>
    </message>
</context>
<context>
    <name>kforge::RoundSetupPage</name>
    <message>
        <location filename="../views/roundcontrol/roundsetuppage.cpp" line="+50" />
        <source>The service that answers (Settings → Models)</source>
        <translation>提供回答的服务（设置 → 模型）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Model name as the endpoint knows it</source>
        <translation>端点所识别的模型名称</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Answers asked for per round, sent concurrently</source>
        <translation>每轮请求的回答数，并发发送</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Measured variants shown to the model in the prompt (K)</source>
        <translation>提示词中展示给模型的已测量变体数（K）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Speedup buckets</source>
        <translation>加速比分桶</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Most different</source>
        <translation>差异最大</translation>
    </message>
    <message>
        <location line="+1" />
        <source>How exemplars are chosen; pinned variants are always shown, excluded ones never</source>
        <translation>示例的选择方式；固定的变体总会展示，排除的变体从不展示</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Per candidate</source>
        <translation>按候选</translation>
    </message>
    <message>
        <location line="+1" />
        <source>One prompt per round</source>
        <translation>每轮一个提示词</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Per candidate: each candidate draws its own exemplars, the best variant so far always among them. Automatic: per candidate when there are more correct variants than exemplar slots.</source>
        <translation>按候选：每个候选各自抽取示例，迄今最佳的变体总在其中。自动：当正确变体多于示例名额时按候选抽取。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>How often a candidate that fails to compile or verify is sent back with the diagnostics</source>
        <translation>编译或验证失败的候选内核附带诊断信息发回模型的次数</translation>
    </message>
    <message>
        <location line="+2" />
        <source>A hint for the model, e.g. “try vectorized loads”</source>
        <translation>给模型的提示，例如“尝试向量化加载”</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Review the prompt before it is sent</source>
        <translation>发送前审阅提示词</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Candidates:</source>
        <translation>候选数：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Exemplars:</source>
        <translation>示例数：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Chosen by:</source>
        <translation>选择方式：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Drawn:</source>
        <translation>抽取方式：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Repair attempts:</source>
        <translation>修复尝试次数：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Hint:</source>
        <translation>提示：</translation>
    </message>
</context>
<context>
    <name>kforge::RoundsPage</name>
    <message>
        <location filename="../views/roundcontrol/roundspage.cpp" line="+42" />
        <source>Choose a round to see its candidates</source>
        <translation>选择一个轮次以查看其候选</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Choose a candidate to load the prompt it received; double-click it to read it</source>
        <translation>选择一个候选以载入它收到的提示词；双击即可阅读</translation>
    </message>
</context>
<context>
    <name>kforge::SassModel</name>
    <message>
        <location filename="../views/assembly/sassmodel.cpp" line="+130" />
        <source>No line information for this instruction.</source>
        <translation>该指令没有行号信息。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>inlined at </source>
        <translation>内联于 </translation>
    </message>
    <message>
        <location line="+5" />
        <source>Stalls: %1</source>
        <translation>停顿：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Executed by %1 warps, %2 threads</source>
        <translation>由 %1 个线程束、%2 个线程执行</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Executed by %1 warps</source>
        <translation>由 %1 个线程束执行</translation>
    </message>
    <message>
        <location line="+30" />
        <source>Warp-level executions of the instruction in one launch (CUPTI SASS metrics, smsp__sass_inst_executed)</source>
        <translation>一次启动中该指令的线程束级执行次数（CUPTI SASS 指标，smsp__sass_inst_executed）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Thread efficiency: threads executing the instruction / (32 x warps executing it)</source>
        <translation>线程效率：执行该指令的线程数 / (32 × 执行该指令的线程束数)</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Instruction</source>
        <translation>指令</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Executed</source>
        <translation>执行次数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Threads</source>
        <translation>线程效率</translation>
    </message>
</context>
<context>
    <name>kforge::ScriptedEvaluator</name>
    <message>
        <location filename="../core/workerpool/scriptedevaluator.cpp" line="+41" />
        <source>The evaluation was cancelled.</source>
        <translation>评测已取消。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No script.</source>
        <translation>没有脚本。</translation>
    </message>
</context>
<context>
    <name>kforge::SessionActions</name>
    <message>
        <location filename="../app/gui/sessionactions.cpp" line="+34" />
        <source>Open Task Folder</source>
        <translation>打开任务文件夹</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location line="+1" />
        <source>KForge sessions (*.kforge);;All files (*)</source>
        <translation>KForge 会话 (*.kforge);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Open File</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Tasks and PyTorch problems (task.json *.py);;KForge sessions (*.kforge);;All files (*)</source>
        <translation>任务和 PyTorch 问题 (task.json *.py);;KForge 会话 (*.kforge);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Save Session As</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <location line="+1" />
        <source>KForge sessions (*.kforge)</source>
        <translation>KForge 会话 (*.kforge)</translation>
    </message>
</context>
<context>
    <name>kforge::SessionController</name>
    <message>
        <location filename="../core/workbench/sessioncontroller.cpp" line="+49" />
        <location line="+113" />
        <source>Could not open the session %1:
%2</source>
        <translation>无法打开会话 %1：
%2</translation>
    </message>
    <message>
        <location line="-61" />
        <location line="+75" />
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location line="-70" />
        <source>Could not open the task folder %1:
%2</source>
        <translation>无法打开任务文件夹 %1：
%2</translation>
    </message>
    <message>
        <location line="+17" />
        <source>Opened task %1 (%2)</source>
        <translation>已打开任务 %1（%2）</translation>
    </message>
    <message>
        <location line="+13" />
        <source>Could not make the folder for working sessions: %1</source>
        <translation>无法创建工作会话文件夹：%1</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Could not create a working session for %1: %2</source>
        <translation>无法为 %1 创建工作会话：%2</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Working session %1 (File → Save Session As keeps it under another name)</source>
        <translation>工作会话 %1（文件 → 会话另存为 可以用其他名称保存）</translation>
    </message>
    <message>
        <location line="+36" />
        <source>Opened session %1</source>
        <translation>已打开会话 %1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Rounds of this session that were interrupted and can be resumed: %1</source>
        <translation>此会话中被中断、可继续的轮次：%1</translation>
    </message>
    <message>
        <location line="+11" />
        <source>There is nothing to save: open a task folder or a session first.</source>
        <translation>没有可保存的内容：请先打开任务文件夹或会话。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>A round is running: stop it (Round Control) before saving the session under another name.</source>
        <translation>有一轮正在运行：请先（在轮次控制中）停止它，再以其他名称保存会话。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Could not replace %1.</source>
        <translation>无法替换 %1。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Could not copy the session to %1.</source>
        <translation>无法将会话复制到 %1。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Could not create the session %1:
%2</source>
        <translation>无法创建会话 %1：
%2</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Saved session %1</source>
        <translation>已保存会话 %1</translation>
    </message>
</context>
<context>
    <name>kforge::SessionExportSource</name>
    <message>
        <location filename="../core/export/sessionexportsource.cpp" line="+39" />
        <source>the session has no correct variant besides the reference</source>
        <translation>除参考实现外，会话中没有正确的变体</translation>
    </message>
    <message>
        <location line="+1" />
        <source>every correct variant is marked suspicious and not yet accepted: %1; review and accept one, or name it explicitly</source>
        <translation>所有正确的变体都被标记为可疑且尚未接受：%1；请审阅并接受其中一个，或明确指定一个</translation>
    </message>
    <message>
        <location line="+9" />
        <location line="+18" />
        <source>the session has no variant %1</source>
        <translation>会话中没有变体 %1</translation>
    </message>
    <message>
        <location line="-17" />
        <source>'%1' is neither a variant id nor 'best'</source>
        <translation>“%1”既不是变体 ID，也不是“best”</translation>
    </message>
    <message>
        <location line="+14" />
        <source>the session has no task</source>
        <translation>会话没有任务</translation>
    </message>
    <message>
        <location line="+14" />
        <location line="+7" />
        <source>the session's task.json does not parse: %1</source>
        <translation>无法解析会话的 task.json：%1</translation>
    </message>
    <message>
        <location line="+15" />
        <source>variant %1 has not been evaluated</source>
        <translation>变体 %1 尚未评测</translation>
    </message>
    <message>
        <location line="+2" />
        <source>variant %1 is not correct (its latest evaluation says %2); only verified kernels are exported</source>
        <translation>变体 %1 不正确（最近一次评测结果为%2）；只导出通过验证的内核</translation>
    </message>
    <message>
        <location line="+43" />
        <source>marked for review</source>
        <translation>已标记待审阅</translation>
    </message>
</context>
<context>
    <name>kforge::SessionSchema</name>
    <message>
        <location filename="../core/session/sessionschema.cpp" line="+118" />
        <source>SQL error in "%1": %2</source>
        <translation>“%1”中的 SQL 错误：%2</translation>
    </message>
    <message>
        <location line="+28" />
        <source>the file is an SQLite database but not a KForge session</source>
        <translation>该文件是 SQLite 数据库，但不是 KForge 会话</translation>
    </message>
    <message>
        <location line="+6" />
        <source>cannot read the schema version: %1</source>
        <translation>无法读取模式版本：%1</translation>
    </message>
    <message>
        <location line="+13" />
        <source>the session was written by a newer KForge (schema version %1; this one reads up to %2)</source>
        <translation>该会话由较新版本的 KForge 写入（模式版本 %1；本版本最高只能读取 %2）</translation>
    </message>
    <message>
        <location line="+10" />
        <source>cannot start a transaction: %1</source>
        <translation>无法开始事务：%1</translation>
    </message>
    <message>
        <location line="+22" />
        <source>migration to schema version %1 failed: %2</source>
        <translation>迁移到模式版本 %1 失败：%2</translation>
    </message>
</context>
<context>
    <name>kforge::SessionStore</name>
    <message>
        <location filename="../core/session/sessionrows.cpp" line="+158" />
        <location filename="../core/session/sessionstore.cpp" line="+207" />
        <source>Session database error: %1</source>
        <translation>会话数据库错误：%1</translation>
    </message>
    <message>
        <location filename="../core/session/sessionstore.cpp" line="+112" />
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <location line="+4" />
        <source>The folder of %1 does not exist</source>
        <translation>%1 所在的文件夹不存在</translation>
    </message>
    <message>
        <location line="+13" />
        <source>%1 is open in another process (%2, pid %3)</source>
        <translation>%1 已在另一个进程中打开（%2，pid %3）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Cannot lock %1: no permission to write next to it</source>
        <translation>无法锁定 %1：没有在其所在位置写入的权限</translation>
    </message>
    <message>
        <location line="+15" />
        <location line="+34" />
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+16" />
        <source>%1 already exists</source>
        <translation>%1 已存在</translation>
    </message>
    <message>
        <location line="-252" />
        <source>the process running this round ended before it finished</source>
        <translation>运行此轮次的进程在其完成前结束了</translation>
    </message>
    <message>
        <location filename="../core/session/evaluationrepository.cpp" line="+33" />
        <location filename="../core/session/sessionstore.cpp" line="+62" />
        <location line="+267" />
        <location filename="../core/session/variantrepository.cpp" line="+16" />
        <source>No session is open</source>
        <translation>没有打开的会话</translation>
    </message>
    <message>
        <location filename="../core/session/sessionstore.cpp" line="+2" />
        <source>The session already holds the task %1</source>
        <translation>会话中已有任务 %1</translation>
    </message>
    <message>
        <location line="+4" />
        <location line="+10" />
        <location line="+12" />
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="-16" />
        <source>%1: invalid JSON at offset %2: %3</source>
        <translation>%1：偏移量 %2 处的 JSON 无效：%3</translation>
    </message>
    <message>
        <location line="+53" />
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+8" />
        <source>%1 lists the variant %2, which is not in the folder</source>
        <translation>%1 列出了变体 %2，但它不在该文件夹中</translation>
    </message>
    <message>
        <location filename="../core/session/evaluationrepository.cpp" line="+3" />
        <location filename="../core/session/variantrepository.cpp" line="+85" />
        <location line="+11" />
        <location line="+90" />
        <source>No variant %1 in this session</source>
        <translation>此会话中没有变体 %1</translation>
    </message>
    <message>
        <location line="-17" />
        <source>faster than the speed-of-light floor of the task, which is impossible</source>
        <translation>快于任务的光速上限（理论极限），这不可能</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1x faster, and the output does not depend on the inputs</source>
        <translation>快 %1 倍，且输出不依赖于输入</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1x faster than the reference (over %2x)</source>
        <translation>比参考实现快 %1 倍（超过 %2 倍）</translation>
    </message>
    <message>
        <location filename="../core/session/exchangerepository.cpp" line="+74" />
        <source>No response %1 in this session</source>
        <translation>此会话中没有回答 %1</translation>
    </message>
    <message>
        <location filename="../core/session/roundrepository.cpp" line="+32" />
        <source>No round %1 in this session</source>
        <translation>此会话中没有第 %1 轮</translation>
    </message>
    <message>
        <location filename="../core/session/sessionhistory.cpp" line="+117" />
        <source>Cannot read the history of %1: %2</source>
        <translation>无法读取 %1 的历史：%2</translation>
    </message>
</context>
<context>
    <name>kforge::SettingsDialog</name>
    <message>
        <location filename="../views/settings/settingsdialog.cpp" line="+23" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+49" />
        <source>Show the defaults of this page</source>
        <translation>显示本页的默认值</translation>
    </message>
</context>
<context>
    <name>kforge::SourceHeat</name>
    <message>
        <location filename="../core/sourcelevel/sourceheat.cpp" line="+86" />
        <source>%1 instructions executed (warp-level)</source>
        <translation>执行了 %1 条指令（线程束级）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>, thread efficiency %1%</source>
        <translation>，线程效率 %1%</translation>
    </message>
    <message>
        <location line="+26" />
        <source>line %1, %2% of samples</source>
        <translation>第 %1 行，占样本的 %2%</translation>
    </message>
    <message>
        <location line="+1" />
        <source>line %1, %2% of samples, %3</source>
        <translation>第 %1 行，占样本的 %2%，%3</translation>
    </message>
</context>
<context>
    <name>kforge::SourceLevelView</name>
    <message>
        <location filename="../app/gui/sourcelevelview.cpp" line="+30" />
        <source>Profile Source &amp;Lines</source>
        <translation>剖析源代码行(&amp;L)</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Evaluate the current tab's variant again with CUPTI PC sampling: stall reasons per source line in the editor's heat gutter, the assembly panel and Compare</source>
        <translation>使用 CUPTI PC 采样重新评估当前标签页的变体：每个源代码行的停顿原因显示在编辑器的热度边栏、汇编面板和对比中</translation>
    </message>
    <message>
        <location line="+43" />
        <source>Profiling source lines needs a variant of the open session: save the tab's text as a variant first (evaluate it with Ctrl+Enter).</source>
        <translation>剖析源代码行需要打开的会话中的一个变体：请先把该标签页的文本保存为变体（用 Ctrl+Enter 评估）。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Variant %1 is being evaluated with the PC-sampling pass…</source>
        <translation>正在使用 PC 采样流程评估变体 %1…</translation>
    </message>
    <message>
        <location line="+57" />
        <source>Compiling PTX and SASS of %1…</source>
        <translation>正在编译 %1 的 PTX 和 SASS…</translation>
    </message>
    <message>
        <location line="+8" />
        <source>No reference to show: open a session, its task's reference is shown here.</source>
        <translation>没有可显示的参考实现：请打开一个会话，此处将显示其任务的参考实现。</translation>
    </message>
</context>
<context>
    <name>kforge::SourceProfile</name>
    <message>
        <location filename="../core/eval/sourceprofile.cpp" line="+63" />
        <source>No instruction execution counts: %1</source>
        <translation>没有指令执行次数：%1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No instruction execution counts: the worker did not run CUPTI's SASS metrics (a worker from before they were added).</source>
        <translation>没有指令执行次数：工作进程未运行 CUPTI 的 SASS 指标（该工作进程早于此功能）。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No instruction execution counts: the SASS metrics launch counted no instruction of the candidate's kernels.</source>
        <translation>没有指令执行次数：SASS 指标启动未统计到候选内核的任何指令。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>No source-level profile: the evaluation ran without the PC-sampling pass. Use "Profile source lines" on the variant to run it.</source>
        <translation>没有源代码级剖析：该评估未运行 PC 采样流程。请对该变体使用“剖析源代码行”来运行它。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The PC-sampling pass failed.</source>
        <translation>PC 采样流程失败。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The worker cannot sample this GPU's program counters.</source>
        <translation>工作进程无法对该 GPU 的程序计数器进行采样。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>GPU performance counters are restricted to administrators on the worker host: set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 or run the worker as root.</source>
        <translation>工作进程主机上的 GPU 性能计数器仅限管理员使用：请设置 nvidia 模块选项 NVreg_RestrictProfilingToAdminUsers=0，或以 root 身份运行工作进程。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The kernel was built without line information: compile with -lineinfo.</source>
        <translation>该内核构建时没有行号信息：请使用 -lineinfo 编译。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>This GPU or driver does not support CUPTI PC sampling.</source>
        <translation>该 GPU 或驱动不支持 CUPTI PC 采样。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>The PC-sampling pass collected no samples of the candidate's kernels (the kernels may be too short): lower the sampling period or use a larger problem size.</source>
        <translation>PC 采样流程没有采集到候选内核的任何样本（内核可能太短）：请降低采样周期或使用更大的问题规模。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>The samples cannot be mapped to source lines: the worker host has no cuobjdump to take the kernels' cubins out of the library. Install the CUDA toolkit's binary tools there, or put them on the worker's PATH (or CUDA_HOME).</source>
        <translation>无法把样本映射到源代码行：工作进程所在主机没有 cuobjdump，无法从库中取出内核的 cubin。请在该主机上安装 CUDA 工具包的二进制工具，或把它们加入工作进程的 PATH（或 CUDA_HOME）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The samples carry no source lines: the kernel was built without line information; compile with -lineinfo (KForge's default flags include it).</source>
        <translation>样本不带源代码行：该内核构建时没有行号信息；请使用 -lineinfo 编译（KForge 的默认编译选项包含它）。</translation>
    </message>
    <message>
        <location line="+20" />
        <source>The worker sent an unknown source-profile status "%1".</source>
        <translation>工作进程发送了未知的源代码剖析状态“%1”。</translation>
    </message>
</context>
<context>
    <name>kforge::SpeedOfLight</name>
    <message>
        <location filename="../core/eval/speedoflight.cpp" line="+210" />
        <source>the DRAM's peak bandwidth</source>
        <translation> DRAM 峰值带宽</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the measured read bandwidth</source>
        <translation>实测只读带宽</translation>
    </message>
    <message>
        <location line="+0" />
        <source>the measured copy bandwidth</source>
        <translation>实测拷贝带宽</translation>
    </message>
    <message>
        <location line="+6" />
        <source>the measured FP32 FMA rate</source>
        <translation>实测 FP32 FMA 速率</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the %1 tensor cores' datasheet peak</source>
        <translation> %1 Tensor Core 的规格峰值</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the measured %1 tensor-core peak</source>
        <translation>实测 %1 Tensor Core 峰值</translation>
    </message>
    <message>
        <location line="+53" />
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="+1" />
        <source>beats FLOP floor</source>
        <translation>突破 FLOP 下限</translation>
    </message>
    <message>
        <location line="+1" />
        <source>impossible</source>
        <translation>不可能</translation>
    </message>
    <message>
        <location line="+10" />
        <source>No speed of light: the task has no FLOP or byte formula, or the device's peaks were not measured</source>
        <translation>无光速上限：任务没有 FLOP 或字节数公式，或未测得设备峰值</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1% of the task's speed-of-light floor (%2)</source>
        <translation>达到任务光速上限的 %1%（下限时间 %2）</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Faster than the task's declared arithmetic allows: %1 is under the FLOP floor of %2. Either work is skipped or the task's flops formula counts avoidable work, such as an algebraic rewrite.</source>
        <translation>快于任务声明的计算量所允许的速度：%1 低于 FLOP 下限 %2。要么跳过了部分工作，要么任务的 flops 公式计入了可以避免的计算（例如可用代数变换省去的计算）。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Impossible: %1 is under the %2 needed to move the task's bytes at %3; the variant cannot have done all the work the task describes.</source>
        <translation>不可能：%1 低于以%3搬运任务字节数所需的 %2；该变体不可能完成了任务描述的全部工作。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Byte floor %1 (the task's bytes at %2)</source>
        <translation>字节下限 %1（以%2搬运任务的字节数）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>FLOP floor %1 (the task's FLOPs at %2)</source>
        <translation>FLOP 下限 %1（以%2完成任务的 FLOP）</translation>
    </message>
    <message>
        <location line="-18" />
        <source>%1% of the task's speed-of-light floor</source>
        <translation>达到任务光速上限的 %1%</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Tensor cores can beat this floor too: it is set by the FP32 FMA rate.</source>
        <translation>Tensor Core 也能突破此下限：它按 FP32 FMA 速率计算。</translation>
    </message>
</context>
<context>
    <name>kforge::SpeedupChart</name>
    <message>
        <location filename="../views/charts/speedupchart.cpp" line="+22" />
        <source>reference (1×)</source>
        <translation>参考实现（1×）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>best so far</source>
        <translation>目前最佳</translation>
    </message>
    <message>
        <location line="+1" />
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location line="+1" />
        <source>held for review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1" />
        <source>selected</source>
        <translation>已选中</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Speedup over the reference</source>
        <translation>相对参考实现的加速比</translation>
    </message>
    <message>
        <location line="+35" />
        <source>No variants yet</source>
        <translation>尚无变体</translation>
    </message>
    <message>
        <location line="+0" />
        <source>No session is open</source>
        <translation>没有打开的会话</translation>
    </message>
</context>
<context>
    <name>kforge::StallReason</name>
    <message>
        <location filename="../core/sourcelevel/stallreason.cpp" line="+34" />
        <source>waiting on a global or local memory load (L1TEX)</source>
        <translation>等待全局或本地内存加载（L1TEX）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>waiting on shared memory or a special-function result (MIO)</source>
        <translation>等待共享内存或特殊函数结果（MIO）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>a fixed-latency dependency between instructions</source>
        <translation>指令之间的固定延迟依赖</translation>
    </message>
    <message>
        <location line="+1" />
        <source>waiting at a block barrier (__syncthreads)</source>
        <translation>在线程块屏障处等待（__syncthreads）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>waiting on a memory barrier</source>
        <translation>等待内存屏障</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the shared-memory/special-function queue is full</source>
        <translation>共享内存/特殊函数队列已满</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the global/local memory queue is full (too many loads in flight)</source>
        <translation>全局/本地内存队列已满（进行中的加载过多）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the math pipe is busy</source>
        <translation>数学流水线繁忙</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the texture unit queue is full</source>
        <translation>纹理单元队列已满</translation>
    </message>
    <message>
        <location line="+1" />
        <source>resolving a branch target</source>
        <translation>正在解析分支目标</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no instruction fetched (instruction cache miss)</source>
        <translation>没有取到指令（指令缓存未命中）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the dispatcher could not issue</source>
        <translation>调度器无法发射</translation>
    </message>
    <message>
        <location line="+1" />
        <source>draining memory stores before exit</source>
        <translation>退出前等待内存存储排空</translation>
    </message>
    <message>
        <location line="+1" />
        <source>an immediate-constant cache miss</source>
        <translation>立即数常量缓存未命中</translation>
    </message>
    <message>
        <location line="+1" />
        <source>the warp is sleeping (nanosleep or yield)</source>
        <translation>warp 处于休眠（nanosleep 或 yield）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>ready, but another warp was picked</source>
        <translation>已就绪，但选中了另一个 warp</translation>
    </message>
    <message>
        <location line="+1" />
        <source>issuing an instruction (not a stall)</source>
        <translation>正在发射指令（不是停顿）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>another reason</source>
        <translation>其他原因</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+1" />
        <source>waiting on a warpgroup matrix multiply (tensor cores)</source>
        <translation>等待 warpgroup 矩阵乘法（张量核心）</translation>
    </message>
</context>
<context>
    <name>kforge::StreamDecoder</name>
    <message>
        <location filename="../core/llm/streamdecoder.cpp" line="+31" />
        <source>the response body is larger than %1 MiB</source>
        <translation>响应正文大于 %1 MiB</translation>
    </message>
    <message>
        <location line="+16" />
        <source>a stream event is larger than %1 MiB</source>
        <translation>某个流事件大于 %1 MiB</translation>
    </message>
    <message>
        <location line="+89" />
        <source>invalid JSON (%1) in "%2"</source>
        <translation>“%2”中的 JSON 无效（%1）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>not an object</source>
        <translation>不是对象</translation>
    </message>
</context>
<context>
    <name>kforge::TaskInfoModel</name>
    <message>
        <location filename="../views/task/taskinfomodel.cpp" line="+64" />
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <location line="+1" />
        <source>value %1</source>
        <translation>值 %1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 elements</source>
        <translation>%1 个元素</translation>
    </message>
    <message>
        <location line="+7" />
        <source>As written: [%1]</source>
        <translation>原文：[%1]</translation>
    </message>
    <message>
        <location line="+7" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <location line="+0" />
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5" />
        <source>Model.forward</source>
        <translation>Model.forward</translation>
    </message>
    <message>
        <location line="+0" />
        <source>KF_ENTRY</source>
        <translation>KF_ENTRY</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Model.__init__</source>
        <translation>Model.__init__</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no arguments</source>
        <translation>无参数</translation>
    </message>
    <message>
        <location line="+0" />
        <source>arguments %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Signature</source>
        <translation>签名</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Buffers</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+7" />
        <source>exact</source>
        <translation>精确相等</translation>
    </message>
    <message>
        <location line="+0" />
        <source>atol %1, rtol %2</source>
        <translation>atol %1，rtol %2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>(from task.json)</source>
        <translation>（来自 task.json）</translation>
    </message>
    <message>
        <location line="+0" />
        <source>(the default for %1)</source>
        <translation>（%1 的默认值）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Params</source>
        <translation>规模参数</translation>
    </message>
    <message>
        <location line="+5" />
        <source>not given</source>
        <translation>未给出</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 = %2 %3</source>
        <translation>%1 = %2 %3</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Work</source>
        <translation>工作量</translation>
    </message>
    <message>
        <location line="+1" />
        <source>FLOPs</source>
        <translation>浮点运算量</translation>
    </message>
    <message>
        <location line="+0" />
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location line="+0" />
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0" />
        <source>torch: a PyTorch Model, evaluated by kforge-worker</source>
        <translation>torch：PyTorch Model，由 kforge-worker 评估</translation>
    </message>
    <message>
        <location line="+1" />
        <source>cuda: a KForge kernel, evaluated by kforge-worker</source>
        <translation>cuda：KForge 内核，由 kforge-worker 评估</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+78" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-77" />
        <source>Degenerate</source>
        <translation>退化</translation>
    </message>
    <message>
        <location line="+0" />
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <location line="+1" />
        <source>yes: the output does not depend on the inputs</source>
        <translation>是：输出不依赖于输入</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Time limit</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Derived by discovery</source>
        <translation>分析得出的内容</translation>
    </message>
    <message>
        <location line="+63" />
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Details</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>kforge::TaskPanel</name>
    <message>
        <location filename="../views/task/taskpanel.cpp" line="+46" />
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <location line="+20" />
        <source>normal, mean %1, std %2</source>
        <translation>正态分布，均值 %1，标准差 %2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>uniform in [%1, %2)</source>
        <translation>[%1, %2) 内均匀分布</translation>
    </message>
    <message>
        <location line="+1" />
        <source>integers in [%1, %2)</source>
        <translation>[%1, %2) 内的整数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>constant %1</source>
        <translation>常数 %1</translation>
    </message>
    <message>
        <location line="+58" />
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Signature</source>
        <translation>签名</translation>
    </message>
    <message>
        <location line="+27" />
        <source>measured by the connected worker</source>
        <translation>由已连接的工作进程测得</translation>
    </message>
    <message>
        <location line="+33" />
        <source>measured by the worker, stored with the result of #%1</source>
        <translation>由工作进程测得，随 #%1 的结果保存</translation>
    </message>
    <message>
        <location line="+7" />
        <source>No session is open. Open a task folder or a session to see its task here.</source>
        <translation>没有打开的会话。打开任务文件夹或会话即可在此查看其任务。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The open session holds no task.</source>
        <translation>打开的会话中没有任务。</translation>
    </message>
    <message>
        <location line="+15" />
        <location line="+151" />
        <source>The task stored in this session cannot be read: %1</source>
        <translation>无法读取此会话中保存的任务：%1</translation>
    </message>
    <message>
        <location line="-136" />
        <location line="+146" />
        <source>The task has no description.</source>
        <translation>该任务没有描述。</translation>
    </message>
    <message>
        <location line="-143" />
        <location line="+151" />
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="-149" />
        <location line="+151" />
        <location line="+41" />
        <source>None.</source>
        <translation>无。</translation>
    </message>
    <message>
        <location line="-190" />
        <location line="+8" />
        <location line="+143" />
        <location line="+40" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-191" />
        <location line="+51" />
        <location line="+100" />
        <location line="+12" />
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="-155" />
        <location line="+183" />
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location line="-183" />
        <location line="+183" />
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location line="-183" />
        <location line="+183" />
        <source>Elements</source>
        <translation>元素数</translation>
    </message>
    <message>
        <location line="-183" />
        <location line="+183" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="-181" />
        <location line="+183" />
        <source>Initial values</source>
        <translation>初始值</translation>
    </message>
    <message>
        <location line="-170" />
        <location line="+133" />
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="-132" />
        <location line="+137" />
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="-135" />
        <location line="+207" />
        <source>Tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <location line="-195" />
        <source>%1 outputs: |got − expected| ≤ atol + rtol · |expected|, atol %2, rtol %3</source>
        <translation>%1 输出：|实际 − 期望| ≤ atol + rtol · |期望|，atol %2，rtol %3</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 outputs: exact</source>
        <translation>%1 输出：精确比较</translation>
    </message>
    <message>
        <location line="+2" />
        <location line="+200" />
        <source>(from task.json)</source>
        <translation>（来自 task.json）</translation>
    </message>
    <message>
        <location line="-200" />
        <location line="+200" />
        <source>(the default for %1)</source>
        <translation>（%1 的默认值）</translation>
    </message>
    <message>
        <location line="-194" />
        <location line="+114" />
        <source>Work</source>
        <translation>工作量</translation>
    </message>
    <message>
        <location line="-111" />
        <location line="+112" />
        <source>Quantity</source>
        <translation>量</translation>
    </message>
    <message>
        <location line="-112" />
        <location line="+112" />
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <location line="-111" />
        <location line="+112" />
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <location line="-110" />
        <location line="+4" />
        <location line="+108" />
        <source>not given</source>
        <translation>未给出</translation>
    </message>
    <message>
        <location line="-111" />
        <location line="+110" />
        <source>%1 FLOP</source>
        <translation>%1 FLOP</translation>
    </message>
    <message>
        <location line="-109" />
        <location line="+110" />
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location line="-107" />
        <location line="+108" />
        <source>%1 bytes (%2)</source>
        <translation>%1 字节（%2）</translation>
    </message>
    <message>
        <location line="-105" />
        <source>Arithmetic intensity</source>
        <translation>算术强度</translation>
    </message>
    <message>
        <location line="+0" />
        <source>FLOP / bytes</source>
        <translation>FLOP / 字节</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 FLOP/byte</source>
        <translation>%1 FLOP/字节</translation>
    </message>
    <message>
        <location line="+78" />
        <source>A PyTorch task: the reference is the Model of reference.py, a candidate is a ModelNew module or a KForge .cu whose inputs are the forward's arguments followed by the module's parameters and buffers. kforge-worker evaluates it. The Signature tab lists the same tensors with how discovery derived them.</source>
        <translation>PyTorch 任务：参考实现是 reference.py 中的 Model，候选是一个 ModelNew 模块，或一个 KForge .cu（其输入依次为 forward 的参数、模块的参数和缓冲区）。由 kforge-worker 评估。“签名”页列出同样的张量，以及分析是如何得出它们的。</translation>
    </message>
    <message>
        <location line="+17" />
        <source>The module is built as Model(%1).</source>
        <translation>模块按 Model(%1) 构造。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The module's parameters and buffers</source>
        <translation>模块的参数和缓冲区</translation>
    </message>
    <message>
        <location line="+4" />
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+35" />
        <source>scalar, %1</source>
        <translation>标量，%1</translation>
    </message>
    <message>
        <location line="+16" />
        <source>FLOPs unknown. Without a FLOP count the task has no compute floor, so its speed of light is the memory floor alone: for a compute-bound problem (a matrix product, a convolution) that floor is far too low, %-of-speed-of-light figures read low and a result faster than the true limit is not flagged. Write "flops" in task.json (a number or an expression over the params) to give it one.</source>
        <translation>FLOP 数未知。没有 FLOP 数，任务就没有计算下限，其光速上限只由访存下限决定：对计算受限的问题（矩阵乘、卷积）该下限远远偏低，光速上限百分比会偏低，快于真实极限的结果也不会被标记。请在 task.json 中写入 "flops"（一个数或关于参数的表达式）来给出它。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>No FLOPs counted (no matrix product or convolution): the memory floor alone sets the speed of light, as it should for a memory-bound problem.</source>
        <translation>未计入 FLOP（没有矩阵乘或卷积）：光速上限只由访存下限决定，这对访存受限的问题是合适的。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>How discovery found the FLOPs: %1.</source>
        <translation>发现过程如何得到 FLOP 数：%1。</translation>
    </message>
    <message>
        <location line="+11" />
        <source>%1: exact</source>
        <translation>%1：精确比较</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1: atol %2, rtol %3 %4</source>
        <translation>%1：atol %2，rtol %3 %4</translation>
    </message>
    <message>
        <location line="+8" />
        <source>No output to compare.</source>
        <translation>没有可比较的输出。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Where it came from: %1.</source>
        <translation>来源：%1。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Stricter than KernelBench, which checks every problem with atol = rtol = 1e-2: a candidate KernelBench accepts can be judged incorrect here. To judge as KernelBench does, set "tolerance" in task.json, e.g. {"f32": {"atol": 0.01, "rtol": 0.01}}.</source>
        <translation>比 KernelBench 更严格（KernelBench 对所有问题都用 atol = rtol = 1e-2 检查）：KernelBench 接受的候选在这里可能被判为不正确。若要与 KernelBench 一样判定，请在 task.json 中设置 "tolerance"，例如 {"f32": {"atol": 0.01, "rtol": 0.01}}。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Floors on this GPU</source>
        <translation>此 GPU 上的下限</translation>
    </message>
    <message>
        <location line="+4" />
        <source>The task gives no FLOP or byte formula, so it has no speed-of-light floor.</source>
        <translation>该任务没有给出 FLOP 或字节公式，因此没有光速上限所定的下限时间。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>No device peaks are known yet: the floors need the bandwidth and FLOP rate a worker measures on its GPU. Connect a worker (Settings → Workers) or open a session with measured results.</source>
        <translation>尚不知道设备峰值：下限需要工作进程在其 GPU 上测得的带宽和 FLOP 速率。请连接一个工作进程（设置 → 工作进程），或打开一个含有测量结果的会话。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>%1 GB/s copy bandwidth</source>
        <translation>%1 GB/s 复制带宽</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 FP32 FMA</source>
        <translation>%1 FP32 FMA</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1: %2 (%3).</source>
        <translation>%1：%2（%3）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The GPU</source>
        <translation>该 GPU</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Floor</source>
        <translation>下限</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0" />
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Speed of light: %1, %2-bound. No correct kernel can be faster on this GPU; a result under 90% of it is flagged.</source>
        <translation>光速上限：%1，%2 受限。在此 GPU 上没有正确的内核能更快；低于其 90% 的结果会被标记。</translation>
    </message>
    <message>
        <location line="-7" />
        <source>%1 at %2 GB/s</source>
        <translation>%1，按 %2 GB/s</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 FLOP at %2</source>
        <translation>%1 FLOP，按 %2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+0" />
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="-231" />
        <location line="+104" />
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location line="-102" />
        <location line="+103" />
        <source>Time limit: %1 s per evaluation.</source>
        <translation>时间限制：每次评估 %1 秒。</translation>
    </message>
    <message>
        <location line="-101" />
        <location line="+103" />
        <source>Marked degenerate: its output does not depend on the inputs, so a kernel that writes constants passes and its speedup says nothing.</source>
        <translation>已标记为退化任务：其输出不依赖输入，因此只写常数的内核也能通过，其加速比说明不了什么。</translation>
    </message>
    <message>
        <location line="-97" />
        <source>nvcc flags: %1</source>
        <translation>nvcc 参数：%1</translation>
    </message>
</context>
<context>
    <name>kforge::TaskSummary</name>
    <message>
        <location filename="../core/task/tasksummary.cpp" line="+51" />
        <location line="+16" />
        <source>normal, mean %1, std %2</source>
        <translation>正态分布，均值 %1，标准差 %2</translation>
    </message>
    <message>
        <location line="-15" />
        <location line="+17" />
        <source>uniform in [%1, %2)</source>
        <translation>[%1, %2) 内均匀分布</translation>
    </message>
    <message>
        <location line="-16" />
        <location line="+18" />
        <source>integers in [%1, %2)</source>
        <translation>[%1, %2) 内的整数</translation>
    </message>
    <message>
        <location line="-17" />
        <location line="+19" />
        <source>constant %1</source>
        <translation>常数 %1</translation>
    </message>
    <message>
        <location line="-10" />
        <source>computed by get_inputs()</source>
        <translation>由 get_inputs() 计算</translation>
    </message>
    <message>
        <location line="+253" />
        <source>task.json: invalid JSON at offset %1: %2</source>
        <translation>task.json：偏移 %1 处的 JSON 无效：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TemplateRenderer</name>
    <message>
        <location filename="../core/export/templaterenderer.cpp" line="+15" />
        <source>Export template %1 is missing from this build</source>
        <translation>此构建中缺少导出模板 %1</translation>
    </message>
    <message>
        <location line="+28" />
        <source>no value for placeholder {{%1}}</source>
        <translation>占位符 {{%1}} 没有值</translation>
    </message>
    <message>
        <location line="+21" />
        <source>Export template %1: %2</source>
        <translation>导出模板 %1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TimeNames</name>
    <message>
        <location filename="../core/eval/measureformat.cpp" line="+46" />
        <source>Event time (median)</source>
        <translation>事件时间（中位数）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kernel time (CUPTI)</source>
        <translation>内核时间（CUPTI）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>One call of the kernel as CUDA events around it saw it, the median over the timed runs. Speedups and the speed of light come from it.</source>
        <translation>用 CUDA 事件包围内核的一次调用所测得的时间，取各次计时运行的中位数。加速比和光速上限都由它得出。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The GPU time of the kernels one call launched, summed per run from CUPTI's trace of extra runs after timing. Launch gaps and host work are not in it.</source>
        <translation>一次调用所启动内核的 GPU 时间，按每次运行累加，取自计时后额外运行的 CUPTI 跟踪。不含启动间隙和主机端工作。</translation>
    </message>
</context>
<context>
    <name>kforge::TimingPage</name>
    <message>
        <location filename="../views/settings/timingpage.cpp" line="+23" />
        <source>Each trial verifies the kernel on freshly generated inputs with a new seed.</source>
        <translation>每次试验都用新种子重新生成输入来验证内核。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Timed runs of each kernel at least.</source>
        <translation>每个内核至少计时运行的次数。</translation>
    </message>
    <message>
        <location line="+1" />
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Keep timing until at least this much time was measured.</source>
        <translation>持续计时，直到累计测量时间至少达到此值。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Stop after this many timed runs even if the minimum time is not reached.</source>
        <translation>达到此计时运行次数后停止，即使未达到最短时间。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Untimed runs before timing starts.</source>
        <translation>计时开始前不计时的运行次数。</translation>
    </message>
    <message>
        <location line="+5" />
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Off (minimum time)</source>
        <translation>关闭（按最短时间）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Timing stops once the 95% confidence interval of the reference's and of the candidate's median is within this many percent of it, after the minimum runs and time, at the latest at the maximum runs. 0 turns it off: timing runs until the minimum runs and the minimum time. A task can set its own target in task.json.</source>
        <translation>当参考实现与候选内核各自中位数的 95% 置信区间都落在中位数的该百分比以内（且已达到最少运行次数和最短时间）时停止计时，最迟在达到最多运行次数时停止。设为 0 则关闭：计时持续到达到最少运行次数和最短时间。任务可在 task.json 中设置自己的目标。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Only for the best variants (when they pay)</source>
        <translation>仅限最好的变体（值得时）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>For every candidate</source>
        <translation>每个候选都采集</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The hardware-metrics pass replays each kernel and takes a second or more per candidate. "When they pay" runs it only for a correct candidate that lands among the session's three fastest variants.</source>
        <translation>硬件指标采集会重放每个内核，每个候选需要一秒或更久。“值得时”只为位列会话最快三个变体之内的正确候选运行。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Skipped metrics show as "not measured", never as zeros; Profile and re-runs always measure.</source>
        <translation>跳过的指标显示为“未测量”，绝不显示为零；剖析和重新运行总会测量。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The reference and the candidate are timed interleaved, in the same process, on the same inputs, with the L2 cache flushed between runs.</source>
        <translation>参考实现与候选内核在同一进程中、以相同输入交替计时，每次运行之间清空 L2 缓存。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Verification &amp;trials:</source>
        <translation>验证试验次数(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Minimum &amp;runs:</source>
        <translation>最少运行次数(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Minimum &amp;time:</source>
        <translation>最短时间(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Ma&amp;ximum runs:</source>
        <translation>最多运行次数(&amp;X)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Warm-up runs:</source>
        <translation>预热运行次数(&amp;W)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Median &amp;confidence target (±%):</source>
        <translation>中位数置信区间目标（±%）(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Hardware &amp;metrics for round candidates:</source>
        <translation>轮次候选的硬件指标(&amp;M)：</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Timing</source>
        <translation>计时</translation>
    </message>
</context>
<context>
    <name>kforge::ToolchainProbe</name>
    <message>
        <location filename="../core/settings/toolchainprobe.cpp" line="+49" />
        <source>The configured CUDA compiler %1 does not exist or is not executable.</source>
        <translation>配置的 CUDA 编译器 %1 不存在或不可执行。</translation>
    </message>
    <message>
        <location line="+18" />
        <source>%1 --version failed: %2</source>
        <translation>%1 --version 执行失败：%2</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Could not run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TorchDiagnosis</name>
    <message>
        <location filename="../core/workerpool/torchdiagnosis.cpp" line="+72" />
        <source>this kforge-worker does not say which Python runs a torch task's modules (a version from before it judged torch tasks); install this KForge's kforge-worker where it runs</source>
        <translation>这个 kforge-worker 没有说明用哪个 Python 运行 torch 任务的模块（它的版本早于对 torch 任务的评判）；请在它运行的机器上安装本 KForge 的 kforge-worker</translation>
    </message>
    <message>
        <location line="+7" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TorchExporter</name>
    <message>
        <location filename="../core/export/torchexporter.cpp" line="+214" />
        <source>the kernel ABI header is missing from this build</source>
        <translation>此构建中缺少内核 ABI 头文件</translation>
    </message>
</context>
<context>
    <name>kforge::TorchExtension</name>
    <message>
        <location filename="../core/collection/torchextension.cpp" line="+68" />
        <source>a torch extension (.cu with PYBIND11_MODULE), but its problem defines no class Model</source>
        <translation>这是一个 torch 扩展（带 PYBIND11_MODULE 的 .cu），但其问题没有定义 class Model</translation>
    </message>
    <message>
        <location line="+5" />
        <source>a torch extension (.cu with PYBIND11_MODULE binding forward) for a problem whose Model keeps state (parameters or attributes set in __init__): which of them its forward takes, and in which order, cannot be told without guessing. Give the problem in the functional form (forward(self, ..., fn=module_fn), Sakana's PyTorch_Code_Functional) as the reference, or a ModelNew</source>
        <translation>这是一个 torch 扩展（带 PYBIND11_MODULE 绑定 forward 的 .cu），而其问题的 Model 保存了状态（在 __init__ 中设置的参数或属性）：无法在不猜测的情况下判断它的 forward 接受其中哪些以及按什么顺序。请以函数式形式（forward(self, ..., fn=module_fn)，即 Sakana 的 PyTorch_Code_Functional）提供问题作为参考实现，或提供一个 ModelNew</translation>
    </message>
    <message>
        <location line="+54" />
        <source>a torch extension (.cu with PYBIND11_MODULE): judged as a ModelNew that builds it with load_inline and calls its forward</source>
        <translation>一个 torch 扩展（带 PYBIND11_MODULE 的 .cu）：作为 ModelNew 评判，该 ModelNew 用 load_inline 构建它并调用其 forward</translation>
    </message>
</context>
<context>
    <name>kforge::TorchImport</name>
    <message>
        <location filename="../core/task/torchimport.cpp" line="+37" />
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <location line="+43" />
        <source>%1: cannot be started</source>
        <translation>%1：无法启动</translation>
    </message>
    <message>
        <location line="+6" />
        <source>%1: no answer within 120 s</source>
        <translation>%1：120 秒内没有应答</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1: cannot import torch</source>
        <translation>%1：无法导入 torch</translation>
    </message>
    <message>
        <location line="+39" />
        <source>the discovery script gave no task</source>
        <translation>分析脚本没有给出任务</translation>
    </message>
    <message>
        <location line="+16" />
        <source>cannot read %1 again</source>
        <translation>无法再次读取 %1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>kforge::TorchImportBatch</name>
    <message>
        <location filename="../core/task/torchimportbatch.cpp" line="+94" />
        <source>the discovery process ended without a result (exit status %1): %2</source>
        <translation>分析进程结束时没有给出结果（退出状态 %1）：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TorchImportDialog</name>
    <message>
        <location filename="../app/gui/torchimportdialog.cpp" line="+23" />
        <source>Import a PyTorch Problem</source>
        <translation>导入 PyTorch 问题</translation>
    </message>
    <message>
        <location line="+4" />
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; is a Python file. KForge opens a PyTorch problem in KernelBench's format (&lt;tt&gt;class Model&lt;/tt&gt;, size constants, &lt;tt&gt;get_inputs()&lt;/tt&gt;, &lt;tt&gt;get_init_inputs()&lt;/tt&gt;) as a task.&lt;/p&gt;&lt;p&gt;The import runs the module once where python3 has torch (a CPU is enough; big tensors stay on the meta device), finds the forward's inputs, the module's parameters and buffers, the outputs with their dtypes and shapes, and writes a task folder: &lt;tt&gt;reference.py&lt;/tt&gt; (the file as it is) and &lt;tt&gt;task.json&lt;/tt&gt;. The task then opens in a working session. The problem file itself is not changed.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; 是一个 Python 文件。KForge 可将 KernelBench 格式的 PyTorch 问题（&lt;tt&gt;class Model&lt;/tt&gt;、规模常量、&lt;tt&gt;get_inputs()&lt;/tt&gt;、&lt;tt&gt;get_init_inputs()&lt;/tt&gt;）作为任务打开。&lt;/p&gt;&lt;p&gt;导入会在带 torch 的 python3 中运行一次该模块（CPU 即可；大张量留在 meta 设备上），找出 forward 的输入、模块的参数和缓冲区、输出及其数据类型和形状，并写入一个任务文件夹：&lt;tt&gt;reference.py&lt;/tt&gt;（文件原样）和 &lt;tt&gt;task.json&lt;/tt&gt;。随后任务在工作会话中打开。问题文件本身不会被修改。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+14" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Problem:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Task folder under:</source>
        <translation>任务文件夹位于：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Writes:</source>
        <translation>写入：</translation>
    </message>
    <message>
        <location line="+17" />
        <source>Import and Open</source>
        <translation>导入并打开</translation>
    </message>
    <message>
        <location line="+20" />
        <source>Imported into %1.</source>
        <translation>已导入到 %1。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>Could not import %1.
Step: %2
Cause: %3
Nothing was written; fix the file and import again.</source>
        <translation>无法导入 %1。
步骤：%2
原因：%3
没有写入任何内容；请修正文件后再次导入。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Try Again</source>
        <translation>重试</translation>
    </message>
    <message>
        <location line="+32" />
        <source>The folder holds a task already: its reference.py and task.json are replaced.</source>
        <translation>该文件夹中已有任务：其 reference.py 和 task.json 将被替换。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Task Folder Under</source>
        <translation>任务文件夹的上级文件夹</translation>
    </message>
</context>
<context>
    <name>kforge::TorchImporter</name>
    <message>
        <location filename="../core/task/torchimport.cpp" line="+42" />
        <source>no such file</source>
        <translation>没有这个文件</translation>
    </message>
    <message>
        <location line="+12" />
        <source>the import was cancelled</source>
        <translation>导入已取消</translation>
    </message>
    <message>
        <location line="+28" />
        <source>no python3 with torch (%1); install torch (Debian: python3-torch)</source>
        <translation>没有带 torch 的 python3（%1）；请安装 torch（Debian：python3-torch）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Looking for torch in %1…</source>
        <translation>正在 %1 中查找 torch…</translation>
    </message>
    <message>
        <location line="+7" />
        <source>%1: cannot be started</source>
        <translation>%1：无法启动</translation>
    </message>
    <message>
        <location line="+9" />
        <source>%1: cannot import torch</source>
        <translation>%1：无法导入 torch</translation>
    </message>
    <message>
        <location line="+16" />
        <source>cannot find %1 (installed in share/kforge/torch)</source>
        <translation>找不到 %1（安装在 share/kforge/torch 中）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Running %1 once on meta tensors with %2 (torch %3)…</source>
        <translation>正在用 %2（torch %3）在 meta 张量上运行一次 %1…</translation>
    </message>
    <message>
        <location line="+10" />
        <source>%1 cannot be started: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location line="+23" />
        <source>the discovery process ended without a result (exit status %1): %2</source>
        <translation>分析进程结束时没有给出结果（退出状态 %1）：%2</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Writing the task folder…</source>
        <translation>正在写入任务文件夹…</translation>
    </message>
</context>
<context>
    <name>kforge::TorchKernelExporter</name>
    <message>
        <location filename="../core/export/torchkernelexporter.cpp" line="+163" />
        <source>the task %1 has no outputs</source>
        <translation>任务 %1 没有输出</translation>
    </message>
    <message>
        <location line="+22" />
        <source>the forward argument %1 is a Python %2: the kernel's kf_params take int, float and bool</source>
        <translation>前向参数 %1 是 Python %2：内核的 kf_params 只接受 int、float 和 bool</translation>
    </message>
    <message>
        <location line="+26" />
        <source>tensor %1 has dtype %2, which the kernel ABI has no name for (f32, f16, bf16, f64, i32, i64, u8)</source>
        <translation>张量 %1 的数据类型为 %2，内核 ABI 中没有对应的类型（f32、f16、bf16、f64、i32、i64、u8）</translation>
    </message>
    <message>
        <location line="+7" />
        <source>tensor %1 has %2 dimensions; the kernel ABI allows %3</source>
        <translation>张量 %1 有 %2 个维度；内核 ABI 最多允许 %3 个</translation>
    </message>
    <message>
        <location line="+21" />
        <source>dimension %1 of %2 (%3) does not evaluate over the task's params: %4</source>
        <translation>%2 的第 %1 维（%3）无法用任务的参数求值：%4</translation>
    </message>
    <message>
        <location line="+149" />
        <source>the kernel ABI header is missing from this build</source>
        <translation>此构建中缺少内核 ABI 头文件</translation>
    </message>
</context>
<context>
    <name>kforge::VariantTabBinding</name>
    <message>
        <location filename="../views/editor/varianttabbinding.cpp" line="+81" />
        <location line="+28" />
        <location line="+26" />
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="-25" />
        <source>variant %1</source>
        <translation>变体 %1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <location line="+27" />
        <source>fork of %1</source>
        <translation>%1 的派生</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Edit, then Ctrl+Enter compiles and evaluates it as a new variant.</source>
        <translation>编辑后按 Ctrl+Enter，即可将其作为新变体编译并评估。</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Open a task folder or a session first: evaluations are kept in a session.</source>
        <translation>请先打开任务文件夹或会话：评估结果保存在会话中。</translation>
    </message>
    <message>
        <location line="+22" />
        <source>the reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+0" />
        <source>variant #%1</source>
        <translation>变体 #%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Queued for evaluation…</source>
        <translation>已排队等待评估……</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Evaluating %1</source>
        <translation>正在评估%1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Measuring again as evaluation %1; evaluation %2 (%3) stays in the session…</source>
        <translation>作为第 %1 次评估重新测量；第 %2 次评估（%3）保留在会话中…</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Measuring %1 again as a new evaluation (%2 so far, the last: %3); the earlier results stay in the session</source>
        <translation>将%1作为一次新的评估重新测量（此前 %2 次，最近一次：%3）；之前的结果保留在会话中</translation>
    </message>
    <message>
        <location line="+26" />
        <source>Variant #%1 queued for evaluation…</source>
        <translation>变体 #%1 已排队等待评估……</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Evaluating %1 as variant #%2</source>
        <translation>正在将 %1 作为变体 #%2 评估</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Open a task folder or a session first, then drop %1 to add it as a variant.</source>
        <translation>请先打开任务文件夹或会话，再拖放 %1 将其添加为变体。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Opened %1 in the editor, not as a variant: %2</source>
        <translation>已在编辑器中打开 %1，未作为变体：%2</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Could not add %1 as a variant: %2</source>
        <translation>无法将 %1 添加为变体：%2</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Added %1 as variant #%2</source>
        <translation>已将 %1 添加为变体 #%2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>correct, %1×</source>
        <translation>正确，%1×</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no result</source>
        <translation>无结果</translation>
    </message>
    <message>
        <location line="+6" />
        <location line="+24" />
        <source>correct: %1× the reference, %2 %3</source>
        <translation>正确：参考实现的 %1×，%2 %3</translation>
    </message>
    <message>
        <location line="-19" />
        <source>%1 (provisional)</source>
        <translation>%1（暂定）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 (provisional; checking %2…)</source>
        <translation>%1（暂定；正在检查%2…）</translation>
    </message>
    <message>
        <location line="+23" />
        <source> — %1</source>
        <translation> —— %1</translation>
    </message>
    <message>
        <location line="+5" />
        <source> (evaluation %1; before: %2)</source>
        <translation>（第 %1 次评估；上一次：%2）</translation>
    </message>
</context>
<context>
    <name>kforge::VariantsModel</name>
    <message>
        <location filename="../views/variants/variantsmodel.cpp" line="+209" />
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+1" />
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location line="+1" />
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1" />
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <location line="+10" />
        <source>compiling</source>
        <translation>正在编译</translation>
    </message>
    <message>
        <location line="+1" />
        <source>verifying</source>
        <translation>正在验证</translation>
    </message>
    <message>
        <location line="+1" />
        <source>timing</source>
        <translation>正在计时</translation>
    </message>
    <message>
        <location line="+1" />
        <source>profiling</source>
        <translation>正在性能分析</translation>
    </message>
    <message>
        <location line="+1" />
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+8" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+0" />
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+11" />
        <source>deep check running</source>
        <translation>深度检查进行中</translation>
    </message>
    <message>
        <location line="+0" />
        <source>held</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location line="+2" />
        <source>accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <location line="+283" />
        <source>The reference's event time (median) divided by this variant's</source>
        <translation>参考实现的事件时间（中位数）除以此变体的事件时间（中位数）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The task's speed-of-light floor as a percentage of the event time (median)</source>
        <translation>任务的光速上限（理论极限）占事件时间（中位数）的百分比</translation>
    </message>
    <message>
        <location line="+17" />
        <source>Event time</source>
        <translation>事件时间</translation>
    </message>
    <message>
        <location line="-195" />
        <source>%1 (spills %2 B)</source>
        <translation>%1（溢出 %2 B）</translation>
    </message>
    <message>
        <location line="-266" />
        <source>measured, finishing…</source>
        <translation>已测量，正在收尾…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>checking: %1…</source>
        <translation>正在检查：%1…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1, checking: %2…</source>
        <translation>%1，正在检查：%2…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Provisional: the final result replaces it</source>
        <translation>暂定结果：最终结果会取代它</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Provisional: measured before the %1 passes ran; the final result replaces it</source>
        <translation>暂定结果：在%1这些步骤运行之前测得；最终结果会取代它</translation>
    </message>
    <message>
        <location line="+126" />
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location line="+142" />
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+2" />
        <source>excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+85" />
        <source>Accepted after review; held: %1</source>
        <translation>审核后已接受；曾待审核：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Deep check running: %1</source>
        <translation>深度检查进行中：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Held: %1</source>
        <translation>待审核：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Longest-running kernel: %1</source>
        <translation>运行时间最长的内核：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 B of shared memory per block (static and dynamic)</source>
        <translation>每个线程块 %1 B 共享内存（静态与动态）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Inputs from seed %1 (kforge-cli eval --seed %1 reproduces them)</source>
        <translation>输入由种子 %1 生成（kforge-cli eval --seed %1 可复现）</translation>
    </message>
    <message>
        <location line="+63" />
        <source>What limits the kernels, from the roofline</source>
        <translation>根据屋顶线模型得出的内核瓶颈</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Registers per thread of the longest-running kernel</source>
        <translation>运行时间最长的内核的每线程寄存器数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Pinned variants are always shown to the model; excluded ones never</source>
        <translation>固定的变体总会展示给模型；排除的变体从不展示</translation>
    </message>
    <message>
        <location line="+7" />
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+3" />
        <source>% SOL</source>
        <translation>% 光速上限</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Exemplar</source>
        <translation>示例</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
</context>
<context>
    <name>kforge::VariantsPanel</name>
    <message>
        <location filename="../views/variants/variantspanel.cpp" line="+61" />
        <source>Filter by id, label, tag or status</source>
        <translation>按 ID、标签、标记或状态筛选</translation>
    </message>
    <message>
        <location line="+3" />
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1" />
        <source>In flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Held for review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Show only variants in this state</source>
        <translation>只显示处于此状态的变体</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Correct only</source>
        <translation>仅正确的</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <location line="+27" />
        <source>No session is open.
Open a task folder or a session file to see its variants.</source>
        <translation>没有打开的会话。
打开任务文件夹或会话文件即可查看其变体。</translation>
    </message>
    <message numerus="yes">
        <location line="+70" />
        <source>%n variant(s)</source>
        <translation>
            <numerusform>%n 个变体</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+65" />
        <source>Compare the Two Selected</source>
        <translation>比较所选的两个</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Show Parents</source>
        <translation>显示父变体</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Show Children</source>
        <translation>显示子变体</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Show All Variants</source>
        <translation>显示所有变体</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Pin as Exemplar</source>
        <translation>固定为示例</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Exclude from Exemplars</source>
        <translation>从示例中排除</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Include in Exemplars</source>
        <translation>纳入示例</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Accept Held Result</source>
        <translation>接受待审核结果</translation>
    </message>
    <message>
        <location line="+3" />
        <source>You checked the result: let the sampler show it to the model</source>
        <translation>你已检查过该结果：允许采样器将其展示给模型</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Tags…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Fork to Edit</source>
        <translation>派生后编辑</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Profile Source Lines</source>
        <translation>剖析源代码行</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Evaluate it again with CUPTI PC sampling: stall reasons per source line</source>
        <translation>使用 CUPTI PC 采样重新评估：每个源代码行的停顿原因</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Export Variant…</source>
        <translation>导出变体…</translation>
    </message>
    <message>
        <location line="+52" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message numerus="yes">
        <location line="+1" />
        <source>Tags of %n variant(s), separated by commas:</source>
        <translation>
            <numerusform>%n 个变体的标签，以逗号分隔：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14" />
        <source>#%1 has no parent</source>
        <translation>#%1 没有父变体</translation>
    </message>
    <message>
        <location line="+1" />
        <source>#%1 and its parents</source>
        <translation>#%1 及其父变体</translation>
    </message>
    <message>
        <location line="+16" />
        <source>#%1 has no children</source>
        <translation>#%1 没有子变体</translation>
    </message>
    <message numerus="yes">
        <location line="+1" />
        <source>#%1 and its %n child(ren)</source>
        <translation>
            <numerusform>#%1 及其 %n 个子变体</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::VerifyCollectionDialog</name>
    <message>
        <location filename="../views/collection/verifycollectiondialog.cpp" line="+41" />
        <source>Verify Collection</source>
        <translation>验证集合</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Every (problem, candidate) pair of the collection is re-measured by KForge's judge through the workers, with every claim marked as holding or not and why. The problems are imported as PyTorch tasks (a python3 with torch on this machine, a CPU is enough).</source>
        <translation>集合中的每个（问题，候选）配对都由 KForge 的评判通过工作进程重新测量，并标明每个声称是否成立及其原因。问题作为 PyTorch 任务导入（需要本机上带 torch 的 python3，CPU 即可）。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>a folder with problems/ and candidates/, a .json file or a run folder</source>
        <translation>包含 problems/ 和 candidates/ 的文件夹、一个 .json 文件或一个运行文件夹</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>JSON File…</source>
        <translation>JSON 文件…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Detect</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Folder of problems and candidates</source>
        <translation>问题和候选的文件夹</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Released-kernels JSON</source>
        <translation>已发布内核的 JSON</translation>
    </message>
    <message>
        <location line="+1" />
        <source>KernelBench run folder</source>
        <translation>KernelBench 运行文件夹</translation>
    </message>
    <message>
        <location line="+3" />
        <source>a run folder's problems (a KernelBench checkout), or a candidates folder's</source>
        <translation>运行文件夹的问题（KernelBench 检出目录），或候选文件夹的问题</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+9" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="-6" />
        <source>e.g. custom_code=CUDA_Code, score=CUDA_Speedup_Native</source>
        <translation>例如 custom_code=CUDA_Code, score=CUDA_Speedup_Native</translation>
    </message>
    <message>
        <location line="+1" />
        <source>A released JSON's field names when they are not task_id, ref_code, custom_code, score and level: field=name, separated by commas</source>
        <translation>当已发布 JSON 的字段名不是 task_id、ref_code、custom_code、score 和 level 时：字段=名称，用逗号分隔</translation>
    </message>
    <message>
        <location line="+4" />
        <source>where the task folders, results.jsonl, results.csv and report.html go</source>
        <translation>任务文件夹、results.jsonl、results.csv 和 report.html 的存放位置</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Settings → Workers…</source>
        <translation>设置 → 工作进程…</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Verify correct pairs again at two held-out sizes</source>
        <translation>在两个留出尺寸上再次验证正确的配对</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Verify failing pairs again at 1e-3 and 1e-2</source>
        <translation>以 1e-3 和 1e-2 再次验证失败的配对</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Collection:</source>
        <translation>集合：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Layout:</source>
        <translation>布局：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Problems:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Field names:</source>
        <translation>字段名：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Workers:</source>
        <translation>工作进程：</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+65" />
        <source>Field names take field=name with field one of %1, not '%2'.</source>
        <translation>字段名的格式为 字段=名称，字段须为 %1 之一，而不是“%2”。</translation>
    </message>
    <message>
        <location line="+28" />
        <source>Choose the collection.</source>
        <translation>请选择集合。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The problems folder %1 does not exist.</source>
        <translation>问题文件夹 %1 不存在。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Choose the output folder.</source>
        <translation>请选择输出文件夹。</translation>
    </message>
    <message>
        <location line="+28" />
        <source>This folder has results.jsonl: the pairs measured there are kept.</source>
        <translation>此文件夹中已有 results.jsonl：其中已测量的配对会被保留。</translation>
    </message>
    <message>
        <location line="+14" />
        <source>This folder holds a verification of %1 (results.jsonl, %2 KiB): it continues, the pairs measured there are kept.</source>
        <translation>此文件夹保存着对 %1 的验证（results.jsonl，%2 KiB）：将继续该验证，其中已测量的配对会被保留。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Collection Folder</source>
        <translation>集合文件夹</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Released Kernels</source>
        <translation>已发布的内核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Problems Folder</source>
        <translation>问题文件夹</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Output Folder</source>
        <translation>输出文件夹</translation>
    </message>
</context>
<context>
    <name>kforge::VerifyTableModel</name>
    <message>
        <location filename="../views/collection/verifytablemodel.cpp" line="+72" />
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location line="+6" />
        <source>not imported</source>
        <translation>未导入</translation>
    </message>
    <message>
        <location line="+1" />
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location line="+11" />
        <source>fails</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2" />
        <source>holds so far</source>
        <translation>目前成立</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+21" />
        <source>holds</source>
        <translation>成立</translation>
    </message>
    <message>
        <location line="-19" />
        <source>not tried</source>
        <translation>未尝试</translation>
    </message>
    <message>
        <location line="+1" />
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+12" />
        <source>%1–%2×</source>
        <translation>%1–%2×</translation>
    </message>
    <message>
        <location line="+7" />
        <source>does not hold</source>
        <translation>不成立</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="+5" />
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <location line="+5" />
        <source>not at 1e-2</source>
        <translation>1e-2 下也不通过</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+73" />
        <source>The speedup's noise interval: both medians' 95% intervals combined</source>
        <translation>加速比的噪声区间：两个中位数的 95% 区间合并而得</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Whether the claimed speedup holds: correct, unflagged, and within the noise interval</source>
        <translation>声称的加速比是否成立：正确、无标记，且在噪声区间内</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The tolerance at which a failing pair would pass (atol = rtol)</source>
        <translation>失败的配对在哪个容差下能通过（atol = rtol）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>What it runs on the GPU, from the trace: its own kernels or a library's</source>
        <translation>它在 GPU 上运行的内容（来自跟踪）：自己的内核还是库的内核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The workers' time on the pair, every run, plus its compile</source>
        <translation>工作进程在该配对上花费的时间（所有运行）加上其编译时间</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Whether it still holds at two held-out sizes of the problem</source>
        <translation>在问题的两个留出尺寸上是否仍然成立</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Pair</source>
        <translation>配对</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Noise interval</source>
        <translation>噪声区间</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Claimed</source>
        <translation>声称</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Claim</source>
        <translation>声称是否成立</translation>
    </message>
    <message>
        <location line="+1" />
        <source>% SoL</source>
        <translation>光速上限 %</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Hack class</source>
        <translation>作弊类别</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Passes at</source>
        <translation>通过容差</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Held-out sizes</source>
        <translation>留出尺寸</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Cause</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>kforge::WhyFaster</name>
    <message>
        <location filename="../core/optimizer/whyfaster.cpp" line="+52" />
        <source>Choose two variants of the open session.</source>
        <translation>请选择当前会话中的两个变体。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The session budget is spent: %1</source>
        <translation>会话预算已用完：%1</translation>
    </message>
</context>
<context>
    <name>kforge::Workbench</name>
    <message>
        <location filename="../core/workbench/workbench.cpp" line="+303" />
        <source>worker %1</source>
        <translation>工作进程 %1</translation>
    </message>
    <message>
        <location line="-191" />
        <source>GPU worker %1: %2 (%3), %4 SMs, copy %5 GB/s, FMA %6 GFLOP/s</source>
        <translation>GPU 工作进程 %1：%2（%3），%4 个 SM，拷贝 %5 GB/s，FMA %6 GFLOP/s</translation>
    </message>
    <message>
        <location line="+13" />
        <source>GPU worker %1 finds no usable NVIDIA GPU on its machine (it says: %2). Kernels are compiled here but not measured; to measure them, run the worker on a machine with an NVIDIA GPU (Settings → Workers).</source>
        <translation>GPU 工作进程 %1 在其所在机器上找不到可用的 NVIDIA GPU（它报告：%2）。内核会在本机编译，但不会被测量；如需测量，请在装有 NVIDIA GPU 的机器上运行工作进程（设置 → 工作进程）。</translation>
    </message>
    <message>
        <location line="+8" />
        <location line="+2" />
        <source>GPU worker %1: %2</source>
        <translation>GPU 工作进程 %1：%2</translation>
    </message>
    <message>
        <location line="+154" />
        <source>the environment variable %1 is not set</source>
        <translation>环境变量 %1 未设置</translation>
    </message>
    <message>
        <location line="+24" />
        <source>GPU: %1</source>
        <translation>GPU：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source> · %1 job(s) in the queue</source>
        <translation> · 队列中有 %1 个作业</translation>
    </message>
    <message>
        <location line="+12" />
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1: starting</source>
        <translation>%1：正在启动</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Settings → Workers</source>
        <translation>设置 → 工作进程</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerClient</name>
    <message>
        <location filename="../core/workerpool/workerclient.cpp" line="+28" />
        <source>killed by signal %1 (%2)</source>
        <translation>被信号 %1（%2）终止</translation>
    </message>
    <message>
        <location line="+1" />
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+99" />
        <source>kforge-worker was not found (next to this program, in the build tree or on PATH). Build it with the CUDA toolkit, or configure a worker command such as 'ssh gpu-host kforge-worker'.</source>
        <translation>未找到 kforge-worker（在本程序旁、构建目录中和 PATH 中均未找到）。请用 CUDA 工具包构建它，或配置一条工作进程命令，例如“ssh gpu-host kforge-worker”。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The worker command is empty.</source>
        <translation>工作进程命令为空。</translation>
    </message>
    <message>
        <location line="+21" />
        <location line="+452" />
        <source>The worker was stopped.</source>
        <translation>工作进程已停止。</translation>
    </message>
    <message>
        <location line="-318" />
        <source>The request was cancelled.</source>
        <translation>请求已取消。</translation>
    </message>
    <message>
        <location line="+45" />
        <source>not JSON</source>
        <translation>不是 JSON</translation>
    </message>
    <message>
        <location line="+100" />
        <source>The worker speaks protocol version %1; this KForge speaks version %2. Install matching versions of KForge and kforge-worker.</source>
        <translation>工作进程使用协议版本 %1；本 KForge 使用版本 %2。请安装版本相匹配的 KForge 和 kforge-worker。</translation>
    </message>
    <message>
        <location line="+19" />
        <source>The worker does not echo request tokens, so its replies cannot be told from lines a kernel prints. Install a kforge-worker of this KForge version.</source>
        <translation>工作进程不回传请求令牌，因此无法将其回复与内核打印的行区分开。请安装与此 KForge 版本匹配的 kforge-worker。</translation>
    </message>
    <message>
        <location line="-81" />
        <location line="+86" />
        <source>wrong token</source>
        <translation>令牌错误</translation>
    </message>
    <message>
        <location line="+5" />
        <source>The worker refused the handshake: %1</source>
        <translation>工作进程拒绝了握手：%1</translation>
    </message>
    <message>
        <location line="-95" />
        <source>no request is running</source>
        <translation>没有正在运行的请求</translation>
    </message>
    <message>
        <location line="+4" />
        <source>no token</source>
        <translation>没有令牌</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Ignored a response to request %1, which is not running.</source>
        <translation>已忽略对请求 %1 的响应，该请求并未在运行。</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Ignored a measured event for request %1, which is not a running evaluation.</source>
        <translation>已忽略请求 %1 的 measured 事件，该请求不是正在运行的评估。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Ignored a second measured event for request %1.</source>
        <translation>已忽略请求 %1 的第二个 measured 事件。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Ignored a measured event that breaks the protocol (%1); the final result decides.</source>
        <translation>已忽略一个违反协议的 measured 事件（%1）；以最终结果为准。</translation>
    </message>
    <message>
        <location line="+102" />
        <source>Dropped a line on the worker's stdout (%1): %2</source>
        <translation>已丢弃工作进程标准输出中的一行（%1）：%2</translation>
    </message>
    <message>
        <location line="+16" />
        <source>The worker did not report ready within %1 s.</source>
        <translation>工作进程未在 %1 秒内报告就绪。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>Could not start the worker '%1': %2</source>
        <translation>无法启动工作进程“%1”：%2</translation>
    </message>
    <message>
        <location line="+40" />
        <source>The worker exited before it was ready (%1).</source>
        <translation>工作进程在就绪前退出（%1）。</translation>
    </message>
    <message>
        <location line="+18" />
        <source>No answer within %1 s; the worker was stopped (the kernel may hang).</source>
        <translation>%1 秒内没有响应；已停止工作进程（内核可能挂起）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The worker died during '%1' (%2).</source>
        <translation>工作进程在“%1”期间终止（%2）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>The worker exited unexpectedly (%1).</source>
        <translation>工作进程意外退出（%1）。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>The worker keeps exiting; it will be started again for the next request.</source>
        <translation>工作进程反复退出；将在下一个请求时重新启动。</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerPool</name>
    <message>
        <location filename="../core/workerpool/workerpool.cpp" line="+94" />
        <source>The worker was removed from the pool.</source>
        <translation>工作进程已从池中移除。</translation>
    </message>
    <message>
        <location line="+122" />
        <location line="+2" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+65" />
        <source>The evaluation was cancelled.</source>
        <translation>评测已取消。</translation>
    </message>
    <message>
        <location line="+18" />
        <source>No GPU worker is configured.</source>
        <translation>未配置 GPU 工作进程。</translation>
    </message>
    <message>
        <location line="+89" />
        <source>The task's reference module could not be loaded: %1</source>
        <translation>无法加载任务的参考模块：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The reference kernel could not be loaded: %1</source>
        <translation>无法加载参考实现内核：%1</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerProbe</name>
    <message>
        <location filename="../core/workerpool/workerprobe.cpp" line="+49" />
        <source>The worker reported no usable device.</source>
        <translation>工作进程报告没有可用的设备。</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerReadiness</name>
    <message>
        <location filename="../core/workerpool/workerreadiness.cpp" line="+15" />
        <source>GPU worker ready</source>
        <translation>GPU 工作进程就绪</translation>
    </message>
    <message>
        <location line="+1" />
        <source>GPU workers: starting…</source>
        <translation>GPU 工作进程：正在启动…</translation>
    </message>
    <message>
        <location line="+1" />
        <source>No GPU worker configured</source>
        <translation>未配置 GPU 工作进程</translation>
    </message>
    <message>
        <location line="-6" />
        <source>GPU worker: no python3 for torch</source>
        <translation>GPU 工作进程：没有用于 torch 的 python3</translation>
    </message>
    <message>
        <location line="+2" />
        <source>GPU worker: no torch</source>
        <translation>GPU 工作进程：没有 torch</translation>
    </message>
    <message>
        <location line="+5" />
        <source>No GPU worker could be started</source>
        <translation>没有可启动的 GPU 工作进程</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No usable GPU</source>
        <translation>没有可用的 GPU</translation>
    </message>
    <message>
        <location line="+14" />
        <source>The GPU workers are starting: evaluations can begin once one has reported its GPU.</source>
        <translation>GPU 工作进程正在启动：一旦有工作进程报告其 GPU，即可开始评估。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>No GPU worker is configured, so kernels are compiled here but not measured. Add one in Settings → Workers, e.g. a GPU host: ssh gpu-box kforge-worker</source>
        <translation>未配置 GPU 工作进程，因此内核只在此编译，不做测量。请在“设置 → 工作进程”中添加一个，例如一台 GPU 主机：ssh gpu-box kforge-worker</translation>
    </message>
    <message>
        <location line="+6" />
        <source>No configured GPU worker could be started (%1), so kernels are compiled here but not measured. Settings → Workers shows each worker's error and what to do; Test tries a command again.</source>
        <translation>已配置的 GPU 工作进程均无法启动（%1），因此内核只在此编译，不做测量。“设置 → 工作进程”会显示每个工作进程的错误及处理办法；“测试”可再次尝试其命令。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No configured GPU worker could be started, so kernels are compiled here but not measured. Settings → Workers shows each worker's error and what to do; Test tries a command again.</source>
        <translation>已配置的 GPU 工作进程均无法启动，因此内核只在此编译，不做测量。“设置 → 工作进程”会显示每个工作进程的错误及处理办法；“测试”可再次尝试其命令。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>No usable GPU: the worker finds no NVIDIA GPU on its machine, so kernels are compiled here but not measured. Run the worker on a machine with an NVIDIA GPU instead (Settings → Workers, a command such as ssh &lt;host&gt; kforge-worker; Test shows its answer).</source>
        <translation>没有可用的 GPU：工作进程在其所在机器上找不到 NVIDIA GPU，因此内核只在此编译，不做测量。请改在有 NVIDIA GPU 的机器上运行工作进程（设置 → 工作进程，命令例如 ssh &lt;host&gt; kforge-worker；“测试”会显示其应答）。</translation>
    </message>
    <message>
        <location line="+16" />
        <source>The GPU workers are starting: this PyTorch task's candidates can be evaluated once one has reported its GPU and its Python with torch.</source>
        <translation>GPU 工作进程正在启动：一旦有工作进程报告其 GPU 和带 torch 的 Python，即可评估此 PyTorch 任务的候选。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>No GPU worker is configured, so this PyTorch task's candidates are not evaluated: Ctrl+Enter only checks a ModelNew's Python syntax (a .cu kernel is compiled). Add a worker in Settings → Workers, e.g. ssh gpu-box kforge-worker, on a machine with an NVIDIA GPU and PyTorch.</source>
        <translation>未配置 GPU 工作进程，因此不会评估此 PyTorch 任务的候选：Ctrl+Enter 只检查 ModelNew 的 Python 语法（.cu 内核会被编译）。请在“设置 → 工作进程”中添加一个，例如在装有 NVIDIA GPU 和 PyTorch 的机器上：ssh gpu-box kforge-worker。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>No configured GPU worker could be started (%1), so this PyTorch task's candidates are not evaluated. Settings → Workers shows each worker's error and what to do; Test tries a command again.</source>
        <translation>已配置的 GPU 工作进程均无法启动（%1），因此不会评估此 PyTorch 任务的候选。“设置 → 工作进程”会显示每个工作进程的错误及处理办法；“测试”可再次尝试其命令。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-worker cannot run the Python for this PyTorch task's modules: %1. Install Python 3 with PyTorch where the worker runs, or name one that has torch: KFORGE_TORCH_PYTHON=/path/to/python3 in the worker's environment, or kforge-worker --torch-python /path/to/python3 as its command (Settings → Workers).</source>
        <translation>kforge-worker 无法运行用于此 PyTorch 任务模块的 Python：%1。请在工作进程所在机器上安装带 PyTorch 的 Python 3，或指定一个装有 torch 的 Python：在工作进程的环境中设置 KFORGE_TORCH_PYTHON=/path/to/python3，或把它的命令设为 kforge-worker --torch-python /path/to/python3（设置 → 工作进程）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>kforge-worker's Python has no torch, so this PyTorch task's candidates are not evaluated: %1. Install PyTorch for it (pip install torch), or name a python3 that has torch: KFORGE_TORCH_PYTHON=/path/to/python3 in the worker's environment, or kforge-worker --torch-python /path/to/python3 as its command (Settings → Workers).</source>
        <translation>kforge-worker 的 Python 没有 torch，因此不会评估此 PyTorch 任务的候选：%1。请为它安装 PyTorch（pip install torch），或指定一个装有 torch 的 python3：在工作进程的环境中设置 KFORGE_TORCH_PYTHON=/path/to/python3，或把它的命令设为 kforge-worker --torch-python /path/to/python3（设置 → 工作进程）。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>No usable GPU: kforge-worker finds no NVIDIA GPU on its machine (%1), and a PyTorch task's candidates are measured on one. Run the worker on a machine with an NVIDIA GPU and PyTorch (Settings → Workers, e.g. ssh gpu-box kforge-worker; Test shows its answer).</source>
        <translation>没有可用的 GPU：kforge-worker 在其所在机器上找不到 NVIDIA GPU（%1），而 PyTorch 任务的候选要在 GPU 上测量。请在装有 NVIDIA GPU 和 PyTorch 的机器上运行工作进程（设置 → 工作进程，例如 ssh gpu-box kforge-worker；“测试”会显示其应答）。</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerReply</name>
    <message>
        <location filename="../core/workerpool/workerreply.cpp" line="+21" />
        <source>timing.%1 is not an object</source>
        <translation>timing.%1 不是对象</translation>
    </message>
    <message>
        <location line="+3" />
        <source>timing.%1 lacks a numeric median_ms or runs</source>
        <translation>timing.%1 缺少数值型的 median_ms 或 runs</translation>
    </message>
    <message>
        <location line="+3" />
        <source>timing.%1.%2 is not a number</source>
        <translation>timing.%1.%2 不是数字</translation>
    </message>
    <message>
        <location line="+7" />
        <source>verification is missing or not an object</source>
        <translation>verification 缺失或不是对象</translation>
    </message>
    <message>
        <location line="+3" />
        <source>verification lacks a numeric trials or mismatches</source>
        <translation>verification 缺少数值型的 trials 或 mismatches</translation>
    </message>
    <message>
        <location line="+3" />
        <source>verification.%1 is not a number</source>
        <translation>verification.%1 不是数字</translation>
    </message>
    <message>
        <location line="+2" />
        <source>verification.input_mutated is not true or false</source>
        <translation>verification.input_mutated 不是 true 或 false</translation>
    </message>
    <message>
        <location line="+2" />
        <source>a correct verdict with mismatches</source>
        <translation>判定为正确却有不匹配</translation>
    </message>
    <message>
        <location line="+9" />
        <source>the reply has no result object</source>
        <translation>回复中没有 result 对象</translation>
    </message>
    <message>
        <location line="+3" />
        <source>verdict is missing or not a string</source>
        <translation>verdict 缺失或不是字符串</translation>
    </message>
    <message>
        <location line="+2" />
        <source>unknown verdict '%1'</source>
        <translation>未知判定“%1”</translation>
    </message>
    <message>
        <location line="+2" />
        <source>message is missing or not a string</source>
        <translation>message 缺失或不是字符串</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 is not true or false</source>
        <translation>%1 不是 true 或 false</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 is not an array</source>
        <translation>%1 不是数组</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 holds something other than strings</source>
        <translation>%1 含有非字符串的内容</translation>
    </message>
    <message>
        <location line="+10" />
        <source>timing is not an object</source>
        <translation>timing 不是对象</translation>
    </message>
    <message>
        <location line="+6" />
        <source>timing.speedup is not a number</source>
        <translation>timing.speedup 不是数字</translation>
    </message>
    <message>
        <location line="+3" />
        <source>deep is not an object</source>
        <translation>deep 不是对象</translation>
    </message>
    <message>
        <location line="+22" />
        <source>The worker's answer breaks the protocol (%1); it was not used as a measurement.</source>
        <translation>工作进程的回答违反协议（%1）；未将其用作测量结果。</translation>
    </message>
</context>
<context>
    <name>kforge::WorkerStatus</name>
    <message>
        <location filename="../core/workerpool/workerstatus.cpp" line="+34" />
        <source>The host name in the command is unknown here: check its spelling or add it to ~/.ssh/config. In a terminal, 'ssh &lt;host&gt; true' must work without asking anything.</source>
        <translation>此处无法识别命令中的主机名：请检查拼写，或将其加入 ~/.ssh/config。在终端中，“ssh &lt;host&gt; true”必须无需任何询问即可成功。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>ssh could not log in without asking: install your key on that host (ssh-copy-id) and accept its host key once in a terminal, so that 'ssh &lt;host&gt; true' works without a prompt.</source>
        <translation>ssh 无法在不询问的情况下登录：请把你的密钥安装到该主机（ssh-copy-id），并在终端中接受一次其主机密钥，使“ssh &lt;host&gt; true”无需提示即可成功。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>The host does not accept the connection: check that it is up, reachable from here and runs an ssh server (try 'ssh &lt;host&gt; true' in a terminal).</source>
        <translation>该主机不接受连接：请确认它已开机、从此处可达并运行着 ssh 服务器（可在终端中尝试“ssh &lt;host&gt; true”）。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The program was not found where the command runs: install kforge-worker there, or give its full path in the command (a non-interactive shell may not read the PATH set in your login files).</source>
        <translation>在命令运行的位置找不到该程序：请在那里安装 kforge-worker，或在命令中写出它的完整路径（非交互式 shell 可能不会读取你在登录文件中设置的 PATH）。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Install the same KForge version on both sides.</source>
        <translation>请在两端安装相同版本的 KForge。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The worker runs but finds no usable NVIDIA GPU on its machine. Run it on a machine with an NVIDIA GPU and driver (for example over ssh), or update the driver there.</source>
        <translation>工作进程在运行，但在其所在机器上找不到可用的 NVIDIA GPU。请在有 NVIDIA GPU 和驱动的机器上运行它（例如通过 ssh），或更新那里的驱动。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The command started but never answered: run it in a terminal; it must print one line starting with {"event":"ready" within the start timeout.</source>
        <translation>命令已启动但始终没有应答：请在终端中运行它；它必须在启动超时之前输出一行以 {"event":"ready" 开头的内容。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Run the command in a terminal to see what it prints: a worker answers with one line starting with {"event":"ready".</source>
        <translation>请在终端中运行该命令，看看它输出了什么：工作进程会以一行以 {"event":"ready" 开头的内容应答。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Not tested: press Test</source>
        <translation>未测试：请按“测试”</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Connected: %1, %2</source>
        <translation>已连接：%1，%2</translation>
    </message>
    <message>
        <location line="+1" />
        <source>No usable GPU: %1</source>
        <translation>没有可用的 GPU：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Connected: %1 (compute capability %2.%3, %4)</source>
        <translation>已连接：%1（计算能力 %2.%3，%4）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Memory: %1</source>
        <translation>显存：%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>CUDA driver %1, runtime %2</source>
        <translation>CUDA 驱动 %1，运行时 %2</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+1" />
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+3" />
        <source>PyTorch tasks: torch %1 (%2)</source>
        <translation>PyTorch 任务：torch %1（%2）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>PyTorch tasks: not judged here, %1 has no torch (%2)</source>
        <translation>PyTorch 任务：不在此评判，%1 没有 torch（%2）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The worker started but has no usable GPU:</source>
        <translation>工作进程已启动，但没有可用的 GPU：</translation>
    </message>
    <message>
        <location line="+0" />
        <source>The worker failed:</source>
        <translation>工作进程失败：</translation>
    </message>
    <message>
        <location line="+3" />
        <source>What to do: %1</source>
        <translation>处理办法：%1</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Worker %1, protocol %2, kernel ABI %3</source>
        <translation>工作进程 %1，协议 %2，内核 ABI %3</translation>
    </message>
</context>
<context>
    <name>kforge::WorkersPage</name>
    <message>
        <location filename="../views/settings/workerspage.cpp" line="+105" />
        <source>A worker is a command that starts kforge-worker, which runs the kernels on one GPU. Examples: &lt;tt&gt;kforge-worker --device 0&lt;/tt&gt;, &lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;, &lt;tt&gt;srun --gpus=1 kforge-worker&lt;/tt&gt;. Several workers evaluate in parallel.</source>
        <translation>工作进程是一条启动 kforge-worker 的命令，它在一块 GPU 上运行内核。例如：&lt;tt&gt;kforge-worker --device 0&lt;/tt&gt;、&lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;、&lt;tt&gt;srun --gpus=1 kforge-worker&lt;/tt&gt;。多个工作进程可并行评测。</translation>
    </message>
    <message>
        <location line="+11" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Kernel transfer</source>
        <translation>内核传输方式</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+9" />
        <source>What the running workers say, or the answer of the last Test; the selected worker's in full below the table</source>
        <translation>正在运行的工作进程报告的状态，或最近一次测试的应答；选中工作进程的完整信息显示在表格下方</translation>
    </message>
    <message>
        <location line="+12" />
        <source>&amp;Copy Status</source>
        <translation>复制状态(&amp;C)</translation>
    </message>
    <message>
        <location line="+17" />
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>&amp;Test</source>
        <translation>测试(&amp;T)</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Start the selected workers' commands (all of them when none is selected) as KForge does, and show what each answers: its GPU, driver and versions, or the exact error</source>
        <translation>像 KForge 那样启动选中工作进程的命令（未选中时启动全部），并显示每个的应答：其 GPU、驱动和版本，或确切的错误</translation>
    </message>
    <message>
        <location line="+30" />
        <source>Kernel transfer: how a compiled kernel reaches the worker. File path: the worker reads the file KForge wrote, which needs the same machine or a shared folder. Inline: the kernel is sent in the request itself, for a worker on another host. Automatic: inline when the command starts with ssh, srun or another remote launcher, the file path otherwise.</source>
        <translation>内核传输方式：编译好的内核如何送达工作进程。文件路径：工作进程读取 KForge 写出的文件，需要在同一台机器上或使用共享文件夹。内联：内核随请求本身发送，适用于另一台主机上的工作进程。自动：命令以 ssh、srun 或其他远程启动器开头时使用内联，否则使用文件路径。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location line="+68" />
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+1" />
        <source>File path (same machine)</source>
        <translation>文件路径（同一台机器）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Inline (remote host)</source>
        <translation>内联（远程主机）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Inline when the command starts with ssh, srun or another remote launcher, else the file path</source>
        <translation>命令以 ssh、srun 或其他远程启动器开头时使用内联，否则使用文件路径</translation>
    </message>
    <message>
        <location line="+4" />
        <source>The worker reads the compiled kernel from a file KForge wrote (same machine or a shared folder)</source>
        <translation>工作进程从 KForge 写出的文件中读取编译好的内核（同一台机器或共享文件夹）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The compiled kernel is sent inside the request (a worker on another host)</source>
        <translation>编译好的内核随请求一起发送（适用于另一台主机上的工作进程）</translation>
    </message>
    <message>
        <location line="+12" />
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <location line="+76" />
        <source>Select a worker to see its status in full.</source>
        <translation>选择一个工作进程以查看其完整状态。</translation>
    </message>
</context>
<context>
    <name>kforge::cli</name>
    <message>
        <location filename="../app/cli/cmd_eval.cpp" line="-480" />
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location line="+4" />
        <source>, cached</source>
        <translation>，已缓存</translation>
    </message>
    <message>
        <location line="+0" />
        <source>, compiled in %1 s</source>
        <translation>，编译耗时 %1 秒</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 (--seed %1 reproduces the inputs)</source>
        <translation>%1（--seed %1 可复现这些输入）</translation>
    </message>
    <message>
        <location line="+2" />
        <source>CUDA error</source>
        <translation>CUDA 错误</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 trials, max abs err %2, max rel err %3, %4 mismatches</source>
        <translation>%1 次试验，最大绝对误差 %2，最大相对误差 %3，%4 处不匹配</translation>
    </message>
    <message>
        <location line="+5" />
        <source>first mismatch: %1[%2] expected %3, got %4</source>
        <translation>首个不匹配：%1[%2] 期望 %3，实际 %4</translation>
    </message>
    <message>
        <location line="+5" />
        <source>%1 NaN, %2 Inf</source>
        <translation>%1 个 NaN，%2 个 Inf</translation>
    </message>
    <message>
        <location line="+2" />
        <source>the candidate modified an input</source>
        <translation>候选内核修改了输入</translation>
    </message>
    <message>
        <location line="+2" />
        <source>warning: the output does not depend on the inputs</source>
        <translation>警告：输出不依赖于输入</translation>
    </message>
    <message>
        <location line="+9" />
        <source>mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <location line="+1" />
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <location line="+1" />
        <source>p10</source>
        <translation>p10</translation>
    </message>
    <message>
        <location line="+1" />
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <location line="+1" />
        <source>CV</source>
        <translation>变异系数</translation>
    </message>
    <message>
        <location line="+1" />
        <source>runs</source>
        <translation>运行次数</translation>
    </message>
    <message>
        <location line="+2" />
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+51" />
        <source>candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location line="-40" />
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Candidate kernels (CUPTI)</source>
        <translation>候选内核（CUPTI）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1/run</source>
        <translation>%1/次运行</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Kernel resources (ptxas)</source>
        <translation>内核资源（ptxas）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>%1 regs</source>
        <translation>%1 个寄存器</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1 B smem</source>
        <translation>%1 B 共享内存</translation>
    </message>
    <message>
        <location line="+1" />
        <source>spills %1/%2 B</source>
        <translation>溢出 %1/%2 B</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Kernel output:</source>
        <translation>内核输出：</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Turnaround</source>
        <translation>总耗时</translation>
    </message>
    <message>
        <location line="+0" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+123" />
        <source>A task folder (task.json + reference.cu).</source>
        <translation>任务文件夹（task.json + reference.cu）。</translation>
    </message>
    <message>
        <location line="+6" />
        <location filename="../app/cli/cmd_optimize.cpp" line="-412" />
        <source>The worker command (default: the first worker in Settings, 'kforge-worker --device 0').</source>
        <translation>工作进程命令（默认：“设置”中的第一个工作进程，“kforge-worker --device 0”）。</translation>
    </message>
    <message>
        <location line="+1" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+0" />
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Compile for this GPU architecture (default: the worker's).</source>
        <translation>针对此 GPU 架构编译（默认：工作进程的架构）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>sm_XY</source>
        <translation>sm_XY</translation>
    </message>
    <message>
        <location line="+1" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+27" />
        <source>Skip the hardware metrics pass (faster).</source>
        <translation>跳过硬件指标采集（更快）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Generate the inputs from this evaluation seed (0 to 9223372036854775807) instead of a fresh one, to reproduce an evaluation: every result prints the seed it used.</source>
        <translation>用此评估种子（0 到 9223372036854775807）生成输入，而不是新抽取的种子，以复现一次评估：每个结果都会打印其所用的种子。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+5" />
        <source>file.kforge</source>
        <translation>file.kforge</translation>
    </message>
    <message>
        <location line="-51" />
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Cannot read the candidate %1: %2</source>
        <translation>无法读取候选内核 %1：%2</translation>
    </message>
    <message>
        <location line="+70" />
        <source>kforge-cli eval: cannot open the session %1: %2</source>
        <translation>kforge-cli eval：无法打开会话 %1：%2</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli eval: the session %1 is for the task '%2', not '%3'</source>
        <translation>kforge-cli eval：会话 %1 属于任务“%2”，而不是“%3”</translation>
    </message>
    <message>
        <location line="+16" />
        <source>kforge-cli eval: --seed expects an integer from 0 to 9223372036854775807, not '%1'</source>
        <translation>kforge-cli eval：--seed 需要 0 到 9223372036854775807 之间的整数，而不是“%1”</translation>
    </message>
    <message>
        <location line="+36" />
        <source>kforge-cli eval: cannot create the session %1: %2</source>
        <translation>kforge-cli eval：无法创建会话 %1：%2</translation>
    </message>
    <message>
        <location line="+71" />
        <source>%1: %2, %3x measured in %4 s; running %5</source>
        <translation>%1：%2，%3x，测量用时 %4 秒；正在运行%5</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1: %2 measured in %3 s; running %4</source>
        <translation>%1：%2，测量用时 %3 秒；正在运行%4</translation>
    </message>
    <message>
        <location line="+12" />
        <source>… %1</source>
        <translation>… %1</translation>
    </message>
    <message>
        <location line="-25" />
        <source>Not recorded in %1: the candidate got no verdict.</source>
        <translation>未记录到 %1：候选内核没有得到判定结果。</translation>
    </message>
    <message>
        <location line="-328" />
        <source>event time, ms</source>
        <translation>事件时间，ms</translation>
    </message>
    <message>
        <location line="+1" />
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location line="+54" />
        <source>%1 candidates in %2 s: %3 per minute, one worker</source>
        <translation>%1 个候选用时 %2 秒：每分钟 %3 个，一个工作进程</translation>
    </message>
    <message>
        <location line="+6" />
        <source>verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1" />
        <source>compile s</source>
        <translation>编译 秒</translation>
    </message>
    <message>
        <location line="+1" />
        <source>worker s</source>
        <translation>工作进程 秒</translation>
    </message>
    <message>
        <location line="+1" />
        <source>done at s</source>
        <translation>完成于 秒</translation>
    </message>
    <message>
        <location line="+5" />
        <source>cached</source>
        <translation>已缓存</translation>
    </message>
    <message>
        <location line="+95" />
        <source>Compiles the task's reference and the candidates, verifies each candidate against the reference on a GPU worker and times both. Several candidates share one warm worker; their compiles run in parallel (one per core) while the ones already compiled are evaluated.

Exit status: 0 every candidate is correct; 1 one is not (incorrect, crashed, timed out, does not compile or load); 2 bad input; 3 no verdict (no worker or no GPU) and none was found not correct.</source>
        <translation>编译任务的参考实现和各候选内核，在 GPU 工作进程上对照参考实现验证每个候选并为两者计时。多个候选共用一个已预热的工作进程；它们的编译并行进行（每个核心一个），同时评估已编译好的候选。

退出状态：0 所有候选均正确；1 有候选不正确（结果错误、崩溃、超时、无法编译或加载）；2 输入有误；3 没有判定（无工作进程或无 GPU），且未发现不正确的候选。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>The candidate kernel sources (one or more).</source>
        <translation>候选内核源文件（一个或多个）。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Print the result as JSON (an array of results for several candidates).</source>
        <translation>以 JSON 输出结果（多个候选时为结果数组）。</translation>
    </message>
    <message>
        <location line="+13" />
        <source>Also record the candidates and their evaluations as variants of this session (created for the task when the file does not exist), e.g. to export one with 'kforge-cli export'.</source>
        <translation>同时把这些候选内核及其评估记录为该会话的变体（文件不存在时为该任务新建会话），例如以便用“kforge-cli export”导出其中之一。</translation>
    </message>
    <message>
        <location line="-59" />
        <source>kforge-cli eval: expected a task folder and one or more candidate sources; see --help</source>
        <translation>kforge-cli eval：需要一个任务文件夹和一个或多个候选源文件；参见 --help</translation>
    </message>
    <message>
        <location line="+199" />
        <source>Not recorded in %1: %2 got no verdict.</source>
        <translation>未记录到 %1：%2 没有得到判定。</translation>
    </message>
    <message>
        <location line="-3" />
        <source>kforge-cli eval: cannot record the evaluation in %1: %2</source>
        <translation>kforge-cli eval：无法把评估记录到 %1：%2</translation>
    </message>
    <message>
        <location line="-2" />
        <source>Recorded as variant %1 in %2</source>
        <translation>已记录为 %2 中的变体 %1</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+50" />
        <source>Runs contrastive optimization rounds headless: each round shows the model measured variants, asks for N faster ones, compiles, verifies and times every answer on the GPU workers, and stores everything in a session file the workbench opens.

Exit status: 0 every round finished; 1 a round failed; 2 bad input; 3 stopped early (Ctrl+C or a spent budget).</source>
        <translation>以无界面方式运行对比优化轮次：每一轮向模型展示已测量的变体，请求 N 个更快的变体，在 GPU 工作进程上编译、验证并计时每个回答，并将一切保存到工作台可打开的会话文件中。

退出状态：0 所有轮次均已完成；1 某个轮次失败；2 输入有误；3 提前停止（Ctrl+C 或预算用完）。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>A task folder (a new session is created) or a *.kforge session to continue.</source>
        <translation>任务文件夹（将创建新会话），或要继续的 *.kforge 会话。</translation>
    </message>
    <message>
        <location line="-101" />
        <source>Rounds to run (default 1).</source>
        <translation>要运行的轮次数（默认 1）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>R</source>
        <translation>R</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Candidates (concurrent requests) per round (default 4).</source>
        <translation>每轮的候选数（并发请求数，默认 4）。</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="-279" />
        <location line="+12" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+0" />
        <location line="+25" />
        <location line="+3" />
        <location line="+1" />
        <location line="+3" />
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="-30" />
        <source>A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or an OpenAI-compatible base URL such as http://localhost:8000/v1.</source>
        <translation>预设（openai、deepseek、openrouter、anthropic、vllm、ollama、llamacpp）、已保存的端点，或 OpenAI 兼容的基础 URL，例如 http://localhost:8000/v1。</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="-60" />
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+102" />
        <source>Streams one answer from a language model endpoint: the answer to stdout as it arrives, reasoning to stderr, then a usage line to stderr.
Exit status: 0 complete, 1 failed, 2 bad usage or no key, 3 cut off at the token limit, 4 broken off (partial answer), 5 cancelled.</source>
        <translation>从语言模型端点流式获取一个回答：回答边到达边写入 stdout，推理写入 stderr，最后向 stderr 输出一行用量。
退出状态：0 完整；1 失败；2 用法错误或没有密钥；3 达到令牌上限被截断；4 中途断开（部分回答）；5 已取消。</translation>
    </message>
    <message>
        <location line="-69" />
        <source>A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or a base URL such as http://localhost:8000/v1.</source>
        <translation>预设（openai、deepseek、openrouter、anthropic、vllm、ollama、llamacpp）、已保存的端点，或基础 URL，例如 http://localhost:8000/v1。</translation>
    </message>
    <message>
        <location line="+2" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+2" />
        <source>endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <location line="+2" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+2" />
        <source>Model name (default: the endpoint's).</source>
        <translation>模型名称（默认：端点的模型）。</translation>
    </message>
    <message>
        <location line="+0" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+0" />
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+2" />
        <source>openai or anthropic (default: the endpoint's; openai for a URL).</source>
        <translation>openai 或 anthropic（默认：端点的协议；URL 则为 openai）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <location line="+2" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+2" />
        <source>Read the API key from this environment variable.</source>
        <translation>从此环境变量读取 API 密钥。</translation>
    </message>
    <message>
        <location line="+0" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+0" />
        <source>VAR</source>
        <translation>变量</translation>
    </message>
    <message>
        <location line="+1" />
        <source>System prompt file.</source>
        <translation>系统提示词文件。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>User prompt file ('-' for stdin).</source>
        <translation>用户提示词文件（“-”表示 stdin）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Print one JSON object with the whole result at the end instead of streaming.</source>
        <translation>不流式输出，而是在结束时输出一个包含完整结果的 JSON 对象。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Limit on generated tokens.</source>
        <translation>生成令牌数上限。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Sampling temperature.</source>
        <translation>采样温度。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>low, medium or high, for models that reason.</source>
        <translation>low、medium 或 high，用于推理模型。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>effort</source>
        <translation>强度</translation>
    </message>
    <message>
        <location line="+1" />
        <source>PEM file with extra CA certificates.</source>
        <translation>包含额外 CA 证书的 PEM 文件。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Extra request header 'Name: value' (repeatable).</source>
        <translation>额外的请求头“Name: value”（可重复）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Total time limit in seconds.</source>
        <translation>总时间限制（秒）。</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+2" />
        <location line="+1" />
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <location line="-1" />
        <source>Give up when the server sends nothing for this many seconds.</source>
        <translation>服务器在这么多秒内没有发送任何数据时放弃。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Connection time limit in seconds.</source>
        <translation>连接时间限制（秒）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Retries on 429, 5xx and connection errors (default 3).</source>
        <translation>遇到 429、5xx 和连接错误时的重试次数（默认 3）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Print the request (credentials redacted) to stderr first.</source>
        <translation>先将请求（凭据已隐去）输出到 stderr。</translation>
    </message>
    <message>
        <location line="+52" />
        <source>unexpected argument '%1'</source>
        <translation>意外的参数“%1”</translation>
    </message>
    <message>
        <location line="+4" />
        <source>--prompt-file is required</source>
        <translation>必须指定 --prompt-file</translation>
    </message>
    <message>
        <location line="+2" />
        <source>unknown protocol '%1': use openai or anthropic</source>
        <translation>未知协议“%1”：请使用 openai 或 anthropic</translation>
    </message>
    <message>
        <location line="+25" />
        <source>unknown endpoint '%1': give a preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint or a URL</source>
        <translation>未知端点“%1”：请指定预设（openai、deepseek、openrouter、anthropic、vllm、ollama、llamacpp）、已保存的端点或 URL</translation>
    </message>
    <message>
        <location line="-60" />
        <source>--%1 needs a number from %2 to %3</source>
        <translation>--%1 需要 %2 到 %3 之间的数字</translation>
    </message>
    <message>
        <location line="+6" />
        <source>--header needs 'Name: value', not '%1'</source>
        <translation>--header 需要“Name: value”格式，而不是“%1”</translation>
    </message>
    <message>
        <location line="+119" />
        <source>kforge-cli chat: %1 Attempt %2 in %3 s.</source>
        <translation>kforge-cli chat：%1 将在 %3 秒后进行第 %2 次尝试。</translation>
    </message>
    <message>
        <location line="+18" />
        <source>the answer was cut off at the token limit (stop reason '%1'); raise --max-tokens</source>
        <translation>回答达到令牌上限被截断（停止原因“%1”）；请增大 --max-tokens</translation>
    </message>
    <message>
        <location line="+45" />
        <source>usage: %1 prompt + %2 completion tokens (%3 reasoning)</source>
        <translation>用量：%1 个提示令牌 + %2 个补全令牌（其中推理 %3 个）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>usage: not reported by the server</source>
        <translation>用量：服务器未报告</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, first token after %1 s</source>
        <translation>，首个令牌用时 %1 秒</translation>
    </message>
    <message>
        <location line="+1" />
        <source>, %1 s in all</source>
        <translation>，共 %1 秒</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, %1 attempts</source>
        <translation>，%1 次尝试</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, $%1</source>
        <translation>，$%1</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+2" />
        <source>The session file to create for a task folder (default: &lt;task&gt;-&lt;date&gt;.kforge here).</source>
        <translation>为任务文件夹创建的会话文件（默认：当前目录下的 &lt;task&gt;-&lt;date&gt;.kforge）。</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="-241" />
        <location line="+2" />
        <location line="+7" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+1" />
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+5" />
        <source>Measured variants shown per prompt (default 2).</source>
        <translation>每个提示词展示的已测量变体数（默认 2）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <location line="+1" />
        <source>buckets (default), top-k or most-different.</source>
        <translation>buckets（默认）、top-k 或 most-different。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location line="+3" />
        <source>auto (default: per candidate when there are more correct variants than exemplars), per-candidate (each candidate draws its own exemplars, the best always among them) or per-round (one prompt for all).</source>
        <translation>auto（默认：当正确变体多于示例数时按候选抽取）、per-candidate（每个候选各自抽取示例，最佳变体总在其中）或 per-round（所有候选共用一个提示词）。</translation>
    </message>
    <message>
        <location line="+2" />
        <location line="+24" />
        <source>mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="-23" />
        <source>Repair attempts per failed candidate (default 1).</source>
        <translation>每个失败候选的修复尝试次数（默认 1）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Guidance added to every prompt.</source>
        <translation>添加到每个提示词中的指导。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Budget: requests over the whole run.</source>
        <translation>预算：整个运行期间的请求数。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Budget: tokens over the whole run.</source>
        <translation>预算：整个运行期间的令牌数。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Budget: dollars over the whole run (needs prices in Settings).</source>
        <translation>预算：整个运行期间的美元金额（需要在“设置”中配置价格）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>USD</source>
        <translation>USD</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Limit on tokens per answer.</source>
        <translation>每个回答的令牌数上限。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Sampling temperature of the model.</source>
        <translation>模型的采样温度。</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="-3" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+0" />
        <source>T</source>
        <translation>T</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+3" />
        <source>Also import the task's hand-written variants into a new session (they become exemplars once measured).</source>
        <translation>同时将任务中手写的变体导入新会话（测量后即成为示例）。</translation>
    </message>
    <message>
        <location line="+360" />
        <source>kforge-cli optimize: %1</source>
        <translation>kforge-cli optimize：%1</translation>
    </message>
    <message>
        <location line="-292" />
        <source>expected one task folder or session file; see --help</source>
        <translation>需要一个任务文件夹或会话文件；请参阅 --help</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="+67" />
        <location filename="../app/cli/cmd_optimize.cpp" line="+2" />
        <source>--endpoint is required</source>
        <translation>必须指定 --endpoint</translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="-67" />
        <source>Accept the correct results held for review (those the automatic deep check could not clear), of this run and of earlier rounds of the session, without review (never one under the speed-of-light floor).</source>
        <translation>无需审核即接受待审核的正确结果（自动深度检查未能确认的结果），包括本次运行和会话中较早轮次的结果（低于光速上限的结果除外）。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>When a round's candidates get the hardware metrics pass: 'when-they-pay' (default: only a correct candidate among the session's 3 fastest is measured again with it; the others say 'not measured'), 'always', or 'never'.</source>
        <translation>轮次中的候选何时运行硬件指标采集：“when-they-pay”（默认：只有位列会话最快 3 个之内的正确候选会带指标采集再测一次；其余标为“未测量”）、“always”或“never”。</translation>
    </message>
    <message>
        <location line="+67" />
        <source>--metrics expects when-they-pay, always or never, not '%1'</source>
        <translation>--metrics 取值为 when-they-pay、always 或 never，而不是“%1”</translation>
    </message>
    <message>
        <location line="-39" />
        <source>--rounds, --candidates and --exemplars take a positive number, --repair zero or more</source>
        <translation>--rounds、--candidates 和 --exemplars 需要正数，--repair 需要零或正数</translation>
    </message>
    <message>
        <location line="+4" />
        <source>--sampling is buckets, top-k or most-different, not '%1'</source>
        <translation>--sampling 应为 buckets、top-k 或 most-different，而不是“%1”</translation>
    </message>
    <message>
        <location line="+5" />
        <source>--exemplar-mode is auto, per-candidate or per-round, not '%1'</source>
        <translation>--exemplar-mode 取值为 auto、per-candidate 或 per-round，而不是“%1”</translation>
    </message>
    <message>
        <location line="+62" />
        <source>unknown endpoint '%1': give a preset, a saved endpoint or a URL</source>
        <translation>未知端点“%1”：请指定预设、已保存的端点或 URL</translation>
    </message>
    <message>
        <location line="+35" />
        <source>Session %1 (new, task %2)</source>
        <translation>会话 %1（新建，任务 %2）</translation>
    </message>
    <message>
        <location line="+4" />
        <source>--session is for a task folder; %1 is already a session</source>
        <translation>--session 用于任务文件夹；%1 已经是会话</translation>
    </message>
    <message>
        <location line="+2" />
        <source>%1 is neither a task folder nor a session file</source>
        <translation>%1 既不是任务文件夹也不是会话文件</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1 holds no task</source>
        <translation>%1 中没有任务</translation>
    </message>
    <message numerus="yes">
        <location line="+2" />
        <source>Session %1 (%n variant(s), task %2)</source>
        <translation>
            <numerusform>会话 %1（%n 个变体，任务 %2）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+185" />
        <source>held for review: %1</source>
        <translation>待审阅：%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>not yet accepted</source>
        <translation>尚未接受</translation>
    </message>
    <message>
        <location line="+2" />
        <source>accepted after review</source>
        <translation>已审阅并接受</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Best: %1 #%2, %3 (%4)</source>
        <translation>最佳：%1 #%2，%3（%4）</translation>
    </message>
    <message>
        <location line="+3" />
        <source>Best reviewed: %1 #%2, %3 (%4)</source>
        <translation>已审阅的最佳：%1 #%2，%3（%4）</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Session: %1</source>
        <translation>会话：%1</translation>
    </message>
</context>
<context>
    <name>kforge::cli::DatasetCommand</name>
    <message>
        <location filename="../app/cli/cmd_dataset.cpp" line="-73" />
        <source>Write every model answer of the given sessions as one JSON object per line: the prompt as chat messages, the answer, its parsed parts, the verdict and the speedup. Suspicious and degenerate results are left out unless asked for.</source>
        <translation>将指定会话中的每个模型回答写为每行一个 JSON 对象：以聊天消息形式给出的提示词、回答、解析出的各部分、判定结果和加速比。除非明确要求，否则不包含可疑和退化的结果。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>Session files (*.kforge).</source>
        <translation>会话文件（*.kforge）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>session.kforge...</source>
        <translation>session.kforge...</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The JSON lines file to write.</source>
        <translation>要写入的 JSON Lines 文件。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>data.jsonl</source>
        <translation>data.jsonl</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Only answers whose kernel was verified correct.</source>
        <translation>只包含内核经验证正确的回答。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Only correct answers measured at least this many times faster than the reference.</source>
        <translation>只包含实测比参考实现至少快这么多倍的正确回答。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Also results held for review and results of degenerate tasks or outputs.</source>
        <translation>同时包含待审阅的结果，以及退化任务或退化输出的结果。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Usage: kforge-cli dataset &lt;session.kforge&gt;... --out data.jsonl [--correct-only] [--min-speedup X] [--include-suspicious]</source>
        <translation>用法：kforge-cli dataset &lt;session.kforge&gt;... --out data.jsonl [--correct-only] [--min-speedup X] [--include-suspicious]</translation>
    </message>
    <message>
        <location line="+12" />
        <source>kforge-cli dataset: --min-speedup takes a number, not '%1'</source>
        <translation>kforge-cli dataset：--min-speedup 需要数字，而不是“%1”</translation>
    </message>
    <message>
        <location line="+10" />
        <source>kforge-cli dataset: no session file %1</source>
        <translation>kforge-cli dataset：没有会话文件 %1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli dataset: %1: %2</source>
        <translation>kforge-cli dataset：%1：%2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>kforge-cli dataset: cannot write %1: %2</source>
        <translation>kforge-cli dataset：无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+4" />
        <source>%1 of %2 answers written to %3</source>
        <translation>已将 %2 个回答中的 %1 个写入 %3</translation>
    </message>
    <message>
        <location line="+4" />
        <source>left out: %1 not correct, %2 below the speedup, %3 held for review, %4 degenerate</source>
        <translation>未包含：%1 个不正确，%2 个低于加速比要求，%3 个待审阅，%4 个退化</translation>
    </message>
</context>
<context>
    <name>kforge::cli::ExportCommand</name>
    <message>
        <location filename="../app/cli/cmd_export.cpp" line="-185" />
        <source>The session file (*.kforge).</source>
        <translation>会话文件（*.kforge）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The variant id, or 'best' (default).</source>
        <translation>变体 ID，或“best”（默认）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>id|best</source>
        <translation>id|best</translation>
    </message>
    <message>
        <location line="-6" />
        <source>Export a variant of a session: a standalone CMake CUDA library (cmake), a PyTorch extension (torch), or files added to an existing CMake project (into). A variant of a PyTorch task exports as torch: a ModelNew module (for a .cu kernel, one that calls it built as a PyTorch extension) and the task's reference, with a test and a benchmark.</source>
        <translation>导出会话中的一个变体：独立的 CMake CUDA 库（cmake）、PyTorch 扩展（torch），或添加到现有 CMake 项目中的文件（into）。PyTorch 任务的变体以 torch 格式导出：一个 ModelNew 模块（对于 .cu 内核，是调用将其构建为 PyTorch 扩展的模块）和任务的参考实现，附带测试和基准测试。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>cmake, torch or into (default cmake; torch for a PyTorch task's variant).</source>
        <translation>cmake、torch 或 into（默认 cmake；PyTorch 任务的变体默认 torch）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The folder to write (for 'into': the root of the CMake project).</source>
        <translation>要写入的文件夹（对于“into”：CMake 项目的根目录）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <location line="+2" />
        <source>For 'into': the folder inside the project (default kernels/&lt;task&gt;).</source>
        <translation>对于“into”：项目内的文件夹（默认 kernels/&lt;task&gt;）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>path</source>
        <translation>路径</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Overwrite files that differ from the export.</source>
        <translation>覆盖与导出内容不同的文件。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Put this text, commented, on top of every generated source file.</source>
        <translation>将此文本以注释形式放在每个生成的源文件顶部。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Show what would be written, write nothing.</source>
        <translation>只显示将要写入的内容，不实际写入。</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Usage: kforge-cli export &lt;session.kforge&gt; --variant &lt;id|best&gt; --format cmake|torch|into --out &lt;dir&gt; [--subdir &lt;path&gt;] [--force] [--license-file &lt;file&gt;] [--dry-run]</source>
        <translation>用法：kforge-cli export &lt;session.kforge&gt; --variant &lt;id|best&gt; --format cmake|torch|into --out &lt;dir&gt; [--subdir &lt;path&gt;] [--force] [--license-file &lt;file&gt;] [--dry-run]</translation>
    </message>
    <message>
        <location line="+8" />
        <source>kforge-cli export: unknown format '%1' (cmake, torch or into)</source>
        <translation>kforge-cli export：未知格式“%1”（应为 cmake、torch 或 into）</translation>
    </message>
    <message>
        <location line="+22" />
        <source>kforge-cli export: no session file %1</source>
        <translation>kforge-cli export：没有会话文件 %1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli export: %1: %2</source>
        <translation>kforge-cli export：%1：%2</translation>
    </message>
    <message>
        <location line="+8" />
        <location line="+104" />
        <location line="+12" />
        <source>kforge-cli export: %1</source>
        <translation>kforge-cli export：%1</translation>
    </message>
    <message>
        <location line="-104" />
        <source>kforge-cli export: cannot read the license file %1: %2</source>
        <translation>kforge-cli export：无法读取许可证文件 %1：%2</translation>
    </message>
    <message>
        <location line="+9" />
        <source>kforge-cli export: %1 is not a CMake project (no CMakeLists.txt); 'into' adds to an existing one</source>
        <translation>kforge-cli export：%1 不是 CMake 项目（没有 CMakeLists.txt）；“into”只能添加到现有项目中</translation>
    </message>
    <message>
        <location line="+13" />
        <source>Variant %1 of %2 as '%3' in %4:</source>
        <translation>%2 的变体 %1，以“%3”格式导出到 %4：</translation>
    </message>
    <message numerus="yes">
        <location line="+15" />
        <source>kforge-cli export: refusing to overwrite %n file(s) that differ; use --force to overwrite them:</source>
        <translation>
            <numerusform>kforge-cli export：拒绝覆盖 %n 个有差异的文件；使用 --force 可覆盖：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+63" />
        <source>Dry run: nothing written.</source>
        <translation>试运行：未写入任何内容。</translation>
    </message>
    <message>
        <location line="-51" />
        <source>%1 new, %2 identical, %3 overwritten.</source>
        <translation>%1 个新建，%2 个相同，%3 个已覆盖。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Add to %1:</source>
        <translation>添加到 %1：</translation>
    </message>
</context>
<context>
    <name>kforge::cli::ImportCommand</name>
    <message>
        <location filename="../app/cli/cmd_import.cpp" line="-200" />
        <source>Import PyTorch problems in KernelBench's format (class Model, size constants, get_inputs(), get_init_inputs()) as task folders: reference.py as given and a task.json found by running the module once on meta tensors, where python3 has torch (a CPU is enough).</source>
        <translation>将 KernelBench 格式的 PyTorch 问题（class Model、尺寸常量、get_inputs()、get_init_inputs()）导入为任务文件夹：原样保存的 reference.py，以及在装有 torch 的 python3 中用 meta 张量运行一次模块得到的 task.json（有 CPU 即可）。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>problem.py|folder...</source>
        <translation>problem.py|文件夹...</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Problem files (*.py), or folders of them (their subfolders too).</source>
        <translation>问题文件（*.py），或存放它们的文件夹（含其子文件夹）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Write one task folder per problem under DIR (default: .).</source>
        <translation>在 DIR 下为每个问题写一个任务文件夹（默认：.）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The python3 that has torch (default: $KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3).</source>
        <translation>装有 torch 的 python3（默认：依次试 $KFORGE_TORCH_PYTHON、python3、/usr/bin/python3）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>PATH</source>
        <translation>PATH</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Give up on a problem after S seconds (default: 120).</source>
        <translation>一个问题超过 S 秒即放弃（默认：120）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>S</source>
        <translation>S</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Discover N problems at once (default: the cores, at most 4).</source>
        <translation>同时分析 N 个问题（默认：CPU 核数，最多 4）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Usage: kforge-cli import &lt;problem.py|folder&gt;... [--out DIR] [--python PATH]</source>
        <translation>用法：kforge-cli import &lt;problem.py|文件夹&gt;... [--out DIR] [--python PATH]</translation>
    </message>
    <message>
        <location line="+6" />
        <source>kforge-cli import: --timeout needs a positive number of seconds</source>
        <translation>kforge-cli import：--timeout 需要一个正的秒数</translation>
    </message>
    <message>
        <location line="+7" />
        <source>kforge-cli import: --jobs needs a positive number</source>
        <translation>kforge-cli import：--jobs 需要一个正数</translation>
    </message>
    <message>
        <location line="+18" />
        <source>kforge-cli import: no such file or folder: %1</source>
        <translation>kforge-cli import：没有这个文件或文件夹：%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli import: no *.py problem file in %1</source>
        <translation>kforge-cli import：%1 中没有 *.py 问题文件</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli import: cannot find %1 (installed in share/kforge/torch)</source>
        <translation>kforge-cli import：找不到 %1（应安装在 share/kforge/torch 中）</translation>
    </message>
    <message>
        <location line="+7" />
        <source>kforge-cli import: no python3 with torch (%1); install torch (Debian: python3-torch) or name one with --python</source>
        <translation>kforge-cli import：没有装有 torch 的 python3（%1）；请安装 torch（Debian：python3-torch），或用 --python 指定一个</translation>
    </message>
    <message>
        <location line="+12" />
        <source>kforge-cli import: cannot create %1</source>
        <translation>kforge-cli import：无法创建 %1</translation>
    </message>
    <message>
        <location line="+96" />
        <source>Importing %1 problem(s) with %2 (torch %3), %4 at a time, into %5</source>
        <translation>正在用 %2（torch %3）导入 %1 个问题，每次 %4 个，导入到 %5</translation>
    </message>
    <message>
        <location line="-80" />
        <source>not imported: %1: %2</source>
        <translation>未导入：%1：%2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>task name '%1' is also that of %2</source>
        <translation>任务名“%1”与 %2 的相同</translation>
    </message>
    <message>
        <location line="+20" />
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+2" />
        <source>imported as %1 (%2 inputs, %3 outputs, flops %4, %5 s)</source>
        <translation>已导入为 %1（%2 个输入，%3 个输出，浮点运算量 %4，%5 秒）</translation>
    </message>
    <message>
        <location line="+7" />
        <source>[degenerate: the output does not depend on the inputs]</source>
        <translation>[退化：输出不依赖于输入]</translation>
    </message>
    <message>
        <location line="+3" />
        <source>flops: %1</source>
        <translation>flops：%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Imported %1 of %2 problem(s) into %3 in %4 s.</source>
        <translation>已将 %2 个问题中的 %1 个导入到 %3，用时 %4 秒。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Tolerance: f32 outputs are compared with atol = rtol = 1e-4 (the import's default; f16 1e-2, bf16 2e-2), stricter than KernelBench's 1e-2 for every dtype. Set "tolerance" in a task.json to judge as KernelBench does (docs/torch-tasks.md).</source>
        <translation>容差：f32 输出按 atol = rtol = 1e-4 比较（导入的默认值；f16 为 1e-2，bf16 为 2e-2），比 KernelBench 对所有数据类型使用的 1e-2 更严格。若要与 KernelBench 一样判定，请在 task.json 中设置 "tolerance"（见 docs/torch-tasks.md）。</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Not imported (%1):</source>
        <translation>未导入（%1 个）：</translation>
    </message>
</context>
<context>
    <name>kforge::cli::Printer</name>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="-519" />
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <location line="+26" />
        <source>variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <location line="-25" />
        <source>verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1" />
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>event time</source>
        <translation>事件时间</translation>
    </message>
    <message>
        <location line="+1" />
        <source>notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+13" />
        <source>repair of #%1</source>
        <translation>修复 #%1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>shown %1</source>
        <translation>展示了 %1</translation>
    </message>
    <message>
        <location line="+2" />
        <source>accepted: %1</source>
        <translation>已接受：%1</translation>
    </message>
    <message>
        <location line="+0" />
        <source>held for review: %1</source>
        <translation>待审阅：%1</translation>
    </message>
    <message>
        <location line="+24" />
        <source>answer #%1</source>
        <translation>回答 #%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>no code</source>
        <translation>无代码</translation>
    </message>
    <message>
        <location line="+24" />
        <source>Round %1 %2: %3 candidate(s), %4 correct</source>
        <translation>第 %1 轮%2：%3 个候选，%4 个正确</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, best %1 (%2 #%3)</source>
        <translation>，最佳 %1（%2 #%3）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>; %1 request(s), %2 tokens</source>
        <translation>；%1 次请求，%2 个令牌</translation>
    </message>
    <message>
        <location line="+2" />
        <source>, $%1</source>
        <translation>，$%1</translation>
    </message>
    <message>
        <location line="+1" />
        <source>, %1 s</source>
        <translation>，%1 秒</translation>
    </message>
</context>
<context>
    <name>kforge::cli::ReportCommand</name>
    <message>
        <location filename="../app/cli/cmd_report.cpp" line="-74" />
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+12" />
        <source>Write a report of a session: one self-contained HTML file with the speedup chart, the best variants, their diffs against the reference, metrics and the model's analyses.</source>
        <translation>生成会话报告：一个独立的 HTML 文件，包含加速比图表、最佳变体、它们相对参考实现的差异、各项指标以及模型的分析。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The session file (*.kforge).</source>
        <translation>会话文件（*.kforge）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The HTML file to write (default: &lt;session&gt;-report.html beside the session).</source>
        <translation>要写入的 HTML 文件（默认：会话旁的 &lt;会话&gt;-report.html）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>report.html</source>
        <translation>report.html</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Also write the report as Markdown to this file.</source>
        <translation>同时将报告以 Markdown 格式写入此文件。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>report.md</source>
        <translation>report.md</translation>
    </message>
    <message>
        <location line="+1" />
        <source>How many of the best variants to show in full (default 5).</source>
        <translation>完整展示的最佳变体数量（默认 5）。</translation>
    </message>
    <message>
        <location line="+0" />
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Usage: kforge-cli report &lt;session.kforge&gt; [--out report.html] [--markdown report.md] [--top N]</source>
        <translation>用法：kforge-cli report &lt;session.kforge&gt; [--out report.html] [--markdown report.md] [--top N]</translation>
    </message>
    <message>
        <location line="+6" />
        <source>kforge-cli report: --top takes a number, not '%1'</source>
        <translation>kforge-cli report：--top 需要数字，而不是“%1”</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli report: no session file %1</source>
        <translation>kforge-cli report：没有会话文件 %1</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli report: %1: %2</source>
        <translation>kforge-cli report：%1：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <location line="+7" />
        <location line="+7" />
        <source>kforge-cli report: %1</source>
        <translation>kforge-cli report：%1</translation>
    </message>
    <message>
        <location line="-4" />
        <location line="+7" />
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>kforge::cli::ReviewCommand</name>
    <message>
        <location filename="../app/cli/cmd_review.cpp" line="-112" />
        <source>id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location line="+1" />
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1" />
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location line="+1" />
        <source>verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location line="+1" />
        <source>reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+8" />
        <source>not yet reviewed</source>
        <translation>尚未审核</translation>
    </message>
    <message>
        <location line="+4" />
        <source>No variant is held for review.</source>
        <translation>没有待审核的变体。</translation>
    </message>
    <message>
        <location line="+9" />
        <source>List the variants of a session held for review (a result that looked too good and that the automatic deep check failed or could not run), and accept or reject them.</source>
        <translation>列出会话中待审核的变体（结果好得可疑，且自动深度检查未通过或无法运行），并接受或拒绝它们。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The session file (*.kforge).</source>
        <translation>会话文件（*.kforge）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Accept held variant ID (repeatable, or IDs separated by commas).</source>
        <translation>接受待审核的变体 ID（可重复，或用逗号分隔多个 ID）。</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+2" />
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+0" />
        <source>Reject held variant ID: it is excluded from the exemplars, with a note (repeatable).</source>
        <translation>拒绝待审核的变体 ID：将其从示例中排除，并附上备注（可重复）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Accept every held variant.</source>
        <translation>接受所有待审核的变体。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Usage: kforge-cli review &lt;session.kforge&gt; [--accept ID...] [--reject ID...] [--accept-all]</source>
        <translation>用法：kforge-cli review &lt;session.kforge&gt; [--accept ID...] [--reject ID...] [--accept-all]</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli review: '%1' is not a variant id</source>
        <translation>kforge-cli review：“%1”不是变体编号</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli review: no session file %1</source>
        <translation>kforge-cli review：会话文件 %1 不存在</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli review: %1: %2</source>
        <translation>kforge-cli review：%1：%2</translation>
    </message>
    <message>
        <location line="+12" />
        <source>kforge-cli review: the session has no variant #%1</source>
        <translation>kforge-cli review：会话中没有变体 #%1</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli review: variant #%1 is not held for review</source>
        <translation>kforge-cli review：变体 #%1 并未等待审核</translation>
    </message>
    <message>
        <location line="+4" />
        <source>kforge-cli review: variant #%1 is both accepted and rejected</source>
        <translation>kforge-cli review：变体 #%1 同时被接受和拒绝</translation>
    </message>
    <message>
        <location line="+10" />
        <location line="+16" />
        <source>kforge-cli review: %1</source>
        <translation>kforge-cli review：%1</translation>
    </message>
    <message>
        <location line="-12" />
        <source>Accepted #%1: the rounds can show it to the model.</source>
        <translation>已接受 #%1：轮次可以将其展示给模型。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Accepted #%1, but its latest evaluation is not correct (%2): it is not shown to the model.</source>
        <translation>已接受 #%1，但其最新评估不正确（%2）：不会展示给模型。</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Rejected in review: %1</source>
        <translation>审核时被拒绝：%1</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Rejected #%1: excluded from the exemplars.</source>
        <translation>已拒绝 #%1：已从示例中排除。</translation>
    </message>
</context>
<context>
    <name>kforge::cli::RoundLoop</name>
    <message>
        <location filename="../app/cli/cmd_optimize.cpp" line="+304" />
        <source>Resuming interrupted round %1</source>
        <translation>正在恢复中断的第 %1 轮</translation>
    </message>
    <message>
        <location line="+30" />
        <source>Stopping: cancelling the requests and evaluations in flight...</source>
        <translation>正在停止：正在取消进行中的请求和评测...</translation>
    </message>
    <message numerus="yes">
        <location line="+43" />
        <source>Measuring %n imported variant(s) before the first round</source>
        <translation>
            <numerusform>在第一轮之前测量 %n 个导入的变体</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::cli::VerifyCommand</name>
    <message>
        <location filename="../app/cli/cmd_verify.cpp" line="-224" />
        <source>Verify a collection of kernels: every (problem, candidate) pair re-measured by KForge's judge, with the table the papers print recomputed. A collection is a folder with problems/ and candidates/ (KernelBench problems, ModelNew modules or .cu kernels, paired by name or by problem number), a released-kernels JSON (a list, or an object of lists per level, of {task_id, ref_code, custom_code, score}), or a KernelBench run folder (level_L_problem_P_sample_S_kernel.py, with --problems). Results go to DIR/results.jsonl as they arrive (a run started again skips the pairs already there), then DIR/results.csv and DIR/report.html.

Exit status: 0 every pair verified; 1 some records or problems could not be verified (listed with their cause); 2 bad usage or an unreadable collection; 3 pairs left without a verdict (no worker, no GPU).</source>
        <translation>验证一个内核集合：每个（问题，候选）配对都由 KForge 的评判重新测量，并重新计算论文中给出的表格。集合可以是包含 problems/ 和 candidates/ 的文件夹（KernelBench 问题，ModelNew 模块或 .cu 内核，按名称或问题编号配对）、发布内核的 JSON（由 {task_id, ref_code, custom_code, score} 组成的列表，或按级别分组的列表对象），或 KernelBench 运行文件夹（level_L_problem_P_sample_S_kernel.py，需配合 --problems）。结果一到达就写入 DIR/results.jsonl（再次运行会跳过已有的配对），随后写出 DIR/results.csv 和 DIR/report.html。

退出状态：0 所有配对均已验证；1 有记录或问题无法验证（附原因列出）；2 用法错误或集合无法读取；3 有配对没有得到判定（没有工作进程、没有 GPU）。</translation>
    </message>
    <message>
        <location line="+10" />
        <source>A .json file, a KernelBench run folder, or a folder of problems and candidates.</source>
        <translation>一个 .json 文件、一个 KernelBench 运行文件夹，或一个包含问题和候选的文件夹。</translation>
    </message>
    <message>
        <location line="-77" />
        <source>Write the task folders, results and report under DIR.</source>
        <translation>将任务文件夹、结果和报告写到 DIR 下。</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+20" />
        <location line="+1" />
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <location line="-19" />
        <source>A worker command; repeat for a pool (default: the first worker in Settings, 'kforge-worker --device 0').</source>
        <translation>工作进程命令；重复使用可组成工作进程池（默认：设置中的第一个工作进程，“kforge-worker --device 0”）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Read, pair and import (no GPU), print what would run, and stop.</source>
        <translation>读取、配对并导入（不需要 GPU），打印将要运行的内容后停止。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Only the first N pairs (after --only).</source>
        <translation>只处理前 N 个配对（在 --only 之后）。</translation>
    </message>
    <message>
        <location line="+0" />
        <location line="+24" />
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location line="-23" />
        <source>Only the pairs whose id or problem contains NAME; repeatable.</source>
        <translation>只处理 id 或问题包含 NAME 的配对；可重复使用。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Measure the selected pairs again even where results.jsonl has them (the new results supersede the old).</source>
        <translation>即使 results.jsonl 中已有所选配对，也重新测量（新结果取代旧结果）。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>A released JSON's field name: task_id, ref_code, custom_code, score or level = the name this file uses; repeatable.</source>
        <translation>发布 JSON 的字段名：task_id、ref_code、custom_code、score 或 level = 此文件使用的名称；可重复使用。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>field=name</source>
        <translation>field=name</translation>
    </message>
    <message>
        <location line="+1" />
        <source>The layout, when detection guesses wrong: folder, json or run.</source>
        <translation>当自动检测出错时指定布局：folder、json 或 run。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The problems: of a run folder (a KernelBench checkout), or of a folder of candidates.</source>
        <translation>问题：运行文件夹的问题（KernelBench 检出目录），或候选文件夹的问题。</translation>
    </message>
    <message>
        <location line="+3" />
        <source>The candidates of a folder of problems.</source>
        <translation>问题文件夹对应的候选。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>KernelBench's baseline_time_torch.json: a run folder's claimed speedups from its eval_results.json.</source>
        <translation>KernelBench 的 baseline_time_torch.json：据此由运行文件夹的 eval_results.json 得出声称的加速比。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <location line="+2" />
        <source>The python3 that has torch, for the import (default: $KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3).</source>
        <translation>用于导入的、装有 torch 的 python3（默认：$KFORGE_TORCH_PYTHON、python3，然后是 /usr/bin/python3）。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>PATH</source>
        <translation>PATH</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Import N problems at once (default: the cores, at most 4).</source>
        <translation>同时导入 N 个问题（默认：CPU 核数，最多 4）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Do not verify correct pairs again at held-out sizes.</source>
        <translation>不在留出尺寸上再次验证正确的配对。</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Do not verify incorrect pairs again at 1e-3 and 1e-2.</source>
        <translation>不以 1e-3 和 1e-2 的容差再次验证不正确的配对。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Run the hardware-metrics pass too (slower).</source>
        <translation>同时运行硬件指标采集（较慢）。</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Run every evaluation with the deep check (more trials, edge inputs, every timed output compared).</source>
        <translation>每次评测都进行深度检查（更多次试验、边界输入、比较每次计时的输出）。</translation>
    </message>
    <message>
        <location line="+51" />
        <source>Usage: kforge-cli verify &lt;collection&gt; --out DIR [--worker CMD]... [--plan] [--limit N] [--only NAME]...; see --help</source>
        <translation>用法：kforge-cli verify &lt;集合&gt; --out DIR [--worker CMD]... [--plan] [--limit N] [--only NAME]...；参见 --help</translation>
    </message>
    <message>
        <location line="-37" />
        <source>kforge-cli verify: --format is folder, json or run, not '%1'</source>
        <translation>kforge-cli verify：--format 应为 folder、json 或 run，而不是“%1”</translation>
    </message>
    <message>
        <location line="+5" />
        <source>kforge-cli verify: --map takes field=name with field one of %1, not '%2'</source>
        <translation>kforge-cli verify：--map 接受 field=name，field 为 %1 之一，而不是“%2”</translation>
    </message>
    <message>
        <location line="+45" />
        <source>kforge-cli verify: --limit and --jobs take a positive number</source>
        <translation>kforge-cli verify：--limit 和 --jobs 需要正数</translation>
    </message>
    <message>
        <location line="+132" />
        <location line="+8" />
        <location line="+30" />
        <source>kforge-cli verify: %1</source>
        <translation>kforge-cli verify：%1</translation>
    </message>
    <message>
        <location line="-129" />
        <source>%1: a %2 collection, %3 pairs (%4 selected), %5 records not verified</source>
        <translation>%1：%2 集合，%3 个配对（已选 %4 个），%5 条记录未能验证</translation>
    </message>
    <message>
        <location line="+10" />
        <source>kforge-cli verify: cannot create %1</source>
        <translation>kforge-cli verify：无法创建 %1</translation>
    </message>
    <message>
        <location line="+7" />
        <source>warning: no python3 with torch (%1): problems not imported before cannot be imported (install torch, Debian: python3-torch, or name one with --python)</source>
        <translation>警告：没有装有 torch 的 python3（%1）：之前未导入的问题无法导入（请安装 torch，Debian 上为 python3-torch，或用 --python 指定）</translation>
    </message>
    <message>
        <location line="+8" />
        <source>  %1: not imported: %2</source>
        <translation>  %1：未导入：%2</translation>
    </message>
    <message>
        <location line="+8" />
        <source>Imported %1 problem texts in %2 s (%3 problems, %4 not imported; task folders in %5)</source>
        <translation>已在 %2 秒内导入 %1 个问题文本（%3 个问题，%4 个未导入；任务文件夹位于 %5）</translation>
    </message>
    <message>
        <location line="+34" />
        <source>%1: no verdict (as above)</source>
        <translation>%1：没有判定（同上）</translation>
    </message>
    <message>
        <location line="+1" />
        <source>%1: no verdict: %2</source>
        <translation>%1：没有判定：%2</translation>
    </message>
    <message>
        <location line="+6" />
        <source>Verifying %1 pairs (%2 complete already) on %3 worker(s)</source>
        <translation>正在 %3 个工作进程上验证 %1 个配对（%2 个已完成）</translation>
    </message>
    <message>
        <location line="+33" />
        <source>Every selected pair is in %1 already: nothing to run.</source>
        <translation>所选配对都已在 %1 中：无需运行。</translation>
    </message>
    <message>
        <location line="+37" />
        <source>Wrote %1, %2 and %3</source>
        <translation>已写入 %1、%2 和 %3</translation>
    </message>
</context>
<context>
    <name>kforge::cli::VerifyPrint</name>
    <message>
        <location filename="../app/cli/verifyprint.cpp" line="+23" />
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+4" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+10" />
        <source>(size %1 not imported)</source>
        <translation>（尺寸 %1 未导入）</translation>
    </message>
    <message>
        <location line="+26" />
        <source>Not verified (%1): records that could not become a pair</source>
        <translation>未验证（%1）：无法组成配对的记录</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Notes (%1):</source>
        <translation>备注（%1）：</translation>
    </message>
    <message>
        <location line="+11" />
        <source>pair</source>
        <translation>配对</translation>
    </message>
    <message>
        <location line="+0" />
        <source>problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+0" />
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1" />
        <source>claimed</source>
        <translation>声称</translation>
    </message>
    <message>
        <location line="+0" />
        <source>held-out sizes</source>
        <translation>留出尺寸</translation>
    </message>
    <message>
        <location line="+0" />
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location line="+7" />
        <source>not imported</source>
        <translation>未导入</translation>
    </message>
    <message>
        <location line="+2" />
        <source>not imported: %1: %2</source>
        <translation>未导入：%1：%2</translation>
    </message>
    <message>
        <location line="+2" />
        <source>task kept from an earlier run</source>
        <translation>沿用之前运行的任务</translation>
    </message>
    <message>
        <location line="+0" />
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <location line="+17" />
        <source>[%1/%2] %3%4: %5 · %6 elapsed, ETA %7</source>
        <translation>[%1/%2] %3%4：%5 · 已用 %6，预计剩余 %7</translation>
    </message>
    <message>
        <location line="+12" />
        <source>correct %1 of %2; speedup mean %3, geometric mean %4, median %5, max %6; faster than the reference: %7 of %2</source>
        <translation>%2 个中正确 %1 个；加速比平均 %3，几何平均 %4，中位数 %5，最大 %6；快于参考实现：%2 个中 %7 个</translation>
    </message>
    <message>
        <location line="+8" />
        <source>All measured pairs:</source>
        <translation>所有已测量的配对：</translation>
    </message>
    <message>
        <location line="+1" />
        <source>Pairs without flags:</source>
        <translation>没有标记的配对：</translation>
    </message>
    <message>
        <location line="+2" />
        <source>Claims that hold within their noise: %1 of %2 (claimed median %3)</source>
        <translation>在噪声范围内成立的声称：%2 个中 %1 个（声称的中位数 %3）</translation>
    </message>
    <message>
        <location line="+5" />
        <source>Flagged: %1. Not imported: %2. Not run yet: %3.</source>
        <translation>有标记：%1。未导入：%2。尚未运行：%3。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="+28" />
        <source>KForge: make CUDA kernels faster with a language model in the loop.</source>
        <translation>KForge：借助语言模型让 CUDA 内核更快。</translation>
    </message>
    <message>
        <location line="+4" />
        <source>A task folder or a session file (*.kforge) to open.</source>
        <translation>要打开的任务文件夹或会话文件（*.kforge）。</translation>
    </message>
    <message>
        <location line="+7" />
        <source>Qt's own translations (qtbase_%1.qm) were not found in %2, so Qt's dialogs and standard buttons stay in English: install the qt6-translations-l10n package.</source>
        <translation>在 %2 中未找到 Qt 自身的翻译（qtbase_%1.qm），因此 Qt 的对话框和标准按钮仍为英文：请安装 qt6-translations-l10n 软件包。</translation>
    </message>
</context>
</TS>
