<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CudaToolkit</name>
    <message>
        <location filename="../core/compile/cudatoolkit.cpp" line="+83"/>
        <source>No CUDA compiler (nvcc) was found. Compiling kernels needs a CUDA toolkit on this machine: install one, set CUDA_HOME, or set the path to nvcc in Settings. Without it, configure a GPU worker with a toolkit (Settings → Workers).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalResult</name>
    <message>
        <location filename="../core/eval/evalresult.cpp" line="+64"/>
        <source>correct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>incorrect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timed out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>load error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compile error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+115"/>
        <source>The worker sent an unknown verdict &apos;%1&apos;. %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <location filename="../core/task/task.cpp" line="+37"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: field &apos;%2&apos;: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>not a task folder (it should hold task.json and reference.cu)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge-cli</name>
    <message>
        <location filename="../app/cli/main.cpp" line="+30"/>
        <source>Usage: kforge-cli &lt;command&gt; [options]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Commands:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run &apos;kforge-cli &lt;command&gt; --help&apos; for a command&apos;s options.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>kforge-cli: unknown command &apos;%1&apos;; see kforge-cli --help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_chat.cpp" line="+313"/>
        <source>Stream one answer from an LLM endpoint (checks the endpoint)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_eval.cpp" line="+263"/>
        <source>Compile, verify and time a candidate kernel against its task&apos;s reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/cli/cmd_export.cpp" line="+156"/>
        <source>Export a variant as a CMake project, a PyTorch extension, or into a project</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::Budget</name>
    <message numerus="yes">
        <location filename="../core/optimizer/roundsettings.cpp" line="+10"/>
        <source>%n request(s) of the budget used</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2 budgeted tokens used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>$%1 of the $%2 budget spent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::CMakeExporter</name>
    <message>
        <location filename="../core/export/cmakeexporter.cpp" line="+147"/>
        <source>  # already there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+108"/>
        <source>the kernel ABI header is missing from this build</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ChartBase</name>
    <message>
        <location filename="../views/charts/chartbase.cpp" line="+186"/>
        <source>Unknown image format “%1”: use .png, .svg or .pdf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not write %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ChartsPanel</name>
    <message>
        <location filename="../views/charts/chartspanel.cpp" line="+23"/>
        <source>Speedup by Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernel Times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the shown chart as an image or a PDF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PNG Image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG Drawing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF Document…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+39"/>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SVG drawings (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Chart</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::CompareMetricsModel</name>
    <message>
        <location filename="../views/compare/comparemetricsmodel.cpp" line="+55"/>
        <source>no resource usage from the compiler was stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Median time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup over the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speed of light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>the task has no FLOP or byte formula, or the device peaks are unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kernel time per run (CUPTI)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kernel launches per run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DRAM traffic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DRAM bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FP32 rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Achieved occupancy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Theoretical occupancy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SM throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DRAM throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>L2 hit rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Registers per thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Register spills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shared memory per block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 GFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+12"/>
        <location line="+4"/>
        <location line="+2"/>
        <source>same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-18"/>
        <source>differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1%2 pp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1× faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1× slower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1× of B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+2"/>
        <source>Not measured: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A against B</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ComparePanel</name>
    <message>
        <location filename="../views/compare/comparepanel.cpp" line="+44"/>
        <source>*No analysis is stored for %1: the model did not write it, or it was written by hand.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Swap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Swap A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Why A beats B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&apos;s analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B&apos;s analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Select two variants in the Variants panel and choose “Compare the Two Selected”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+60"/>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>reference</source>
        <translation type="unfinished">参考实现</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&lt;b&gt;A&lt;/b&gt; %1 &amp;nbsp;against&amp;nbsp; &lt;b&gt;B&lt;/b&gt; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Ask the model why #%1 is faster than #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No model connection: the workbench has no round runner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose two variants of the open session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model is answering.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sends both sources and both profiles to the model; the answer streams into the Reasoning panel and is stored with the pair.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <source>not evaluated yet (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unknown variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Kernels of A (#%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernels of A (#%1): no trace: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernels of B (#%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernels of B (#%1): no trace: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A: no hardware metrics: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>B: no hardware metrics: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A is %1; B is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>of unknown bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-1"/>
        <location line="+1"/>
        <source>%1-bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>*No answer about this pair yet. Ask the model with the button above.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>#%1 against #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>*The model is answering; the text streams into the Reasoning panel.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>*No answer was stored.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>*No answer: %1*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot ask: the workbench has no connection to a model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot ask: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Asking the model why #%1 is faster than #%2; the answer streams into the Reasoning panel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The model gave no answer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>empty reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model answered; the answer is stored with the pair.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::Compiler</name>
    <message>
        <location filename="../core/compile/compiler.cpp" line="+244"/>
        <location line="+297"/>
        <source>Compilation was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-246"/>
        <source>&apos;%1 --version&apos; failed (exit code %2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Could not start the CUDA compiler %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+67"/>
        <source>&apos;%1&apos; is not a GPU architecture nvcc accepts (expected e.g. sm_90).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The kernel ABI header kforge/kernel.h was not found; the KForge installation is incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Could not create a work folder in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not write the kernel source to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+50"/>
        <source>Could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Showing SASS needs cuobjdump or nvdisasm from the CUDA toolkit; neither was found next to %1 or on PATH. PTX is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+82"/>
        <source>%1 did not finish within %2 s and was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 crashed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1 failed with %n error(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 failed with exit code %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>nvcc reported success but wrote no %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Could not store the compiled kernel in %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::CompilerPage</name>
    <message>
        <location filename="../views/settings/compilerpage.cpp" line="+23"/>
        <source>Automatic: $CUDA_HOME, /usr/local/cuda, then PATH</source>
        <translation>自动：依次查找 $CUDA_HOME、/usr/local/cuda 和 PATH</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Passed to nvcc for every kernel, before the task&apos;s own flags. Quote arguments that contain spaces.</source>
        <translation>编译每个内核时传给 nvcc，位于任务自身的选项之前。含空格的参数请加引号。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The GPU of the worker</source>
        <translation>工作进程所在的 GPU</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;nvcc:</source>
        <translation>&amp;nvcc：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Flags:</source>
        <translation>编译选项(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Architecture:</source>
        <translation>目标架构(&amp;A)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose nvcc</source>
        <translation>选择 nvcc</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Found nvcc %1 at %2</source>
        <translation>已找到 nvcc %1，位于 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Looking for nvcc…</source>
        <translation>正在查找 nvcc…</translation>
    </message>
</context>
<context>
    <name>kforge::Credentials</name>
    <message>
        <location filename="../core/llm/credentials.cpp" line="+16"/>
        <source>KForge was built without keychain support (QtKeychain); use an environment variable for the API key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the keychain has no entry &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>access to the keychain was denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no keychain service is running (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>keychain error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+38"/>
        <source>no API key: the endpoint names neither an environment variable nor a keychain entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no API key: the environment variable %1 is not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no API key: the environment variable %1 is not set and %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::CudaLexer</name>
    <message>
        <location filename="../views/editor/cudalexer.cpp" line="+81"/>
        <source>CUDA keyword</source>
        <translation>CUDA 关键字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CUDA type</source>
        <translation>CUDA 类型</translation>
    </message>
</context>
<context>
    <name>kforge::EndpointPresets</name>
    <message>
        <location filename="../core/llm/endpointpresets.cpp" line="+60"/>
        <source>Custom endpoint</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::EndpointsPage</name>
    <message>
        <location filename="../views/settings/endpointspage.cpp" line="+29"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>OpenAI-compatible (chat completions)</source>
        <translation>OpenAI 兼容（Chat Completions）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic (messages)</source>
        <translation>Anthropic（Messages）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>When this environment variable is set, its value is used as the API key.</source>
        <translation>设置了此环境变量时，使用其值作为 API 密钥。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Unchanged (kept in the system keychain)</source>
        <translation>未更改（保存在系统密钥环中）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stored in the system keychain when you apply, never in KForge&apos;s settings file.</source>
        <translation>应用时保存到系统密钥环，绝不写入 KForge 的设置文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No keychain support: use the environment variable</source>
        <translation>不支持密钥环：请使用环境变量</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base &amp;URL:</source>
        <translation>基础 &amp;URL：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Protocol:</source>
        <translation>协议(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key &amp;variable:</source>
        <translation>密钥变量(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New rounds</source>
        <translation>新一轮的默认值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How many kernels the model writes per round.</source>
        <translation>模型每轮编写的内核数量。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How many earlier variants, with their measured speedups, the prompt shows.</source>
        <translation>提示词中展示多少个此前的变体及其实测加速比。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Candidates per round:</source>
        <translation>每轮候选数(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Exemplars:</source>
        <translation>示例数(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T)：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
</context>
<context>
    <name>kforge::ExportContext</name>
    <message>
        <location filename="../core/export/exportcontext.cpp" line="+53"/>
        <source>the task has no name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the task %1 has no outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>variant %1 has no source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the task %1 has no reference source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tensor %1 has %2 dimensions; the kernel ABI allows %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ExportPlan</name>
    <message>
        <location filename="../core/export/exportplan.cpp" line="+44"/>
        <source>%1 is a file, not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a folder of that name is in the way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the existing file cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a different file is there</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+26"/>
        <source>%n file(s) would be overwritten</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>cannot replace the folder %1 with a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::Exporter</name>
    <message>
        <location filename="../core/export/exporter.cpp" line="+17"/>
        <source>choose a subfolder of the project for the kernel (--subdir)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the subfolder must be relative to the project: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the subfolder must stay inside the project: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::FindBar</name>
    <message>
        <location filename="../views/editor/findbar.cpp" line="+21"/>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole words</source>
        <translation>全字匹配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace All</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Close the find bar (Esc)</source>
        <translation>关闭查找栏（Esc）</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+45"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%n replaced</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::GeneralPage</name>
    <message>
        <location filename="../views/settings/generalpage.cpp" line="+16"/>
        <location line="+5"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The new language is used from the next start of KForge.</source>
        <translation>新语言将在下次启动 KForge 时生效。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>General</source>
        <translation>常规</translation>
    </message>
</context>
<context>
    <name>kforge::KernelEditor</name>
    <message>
        <location filename="../views/editor/kerneleditor.cpp" line="+44"/>
        <source>No task is open.
Open a task folder (task.json and reference.cu) or a session to see its kernels here.</source>
        <translation>尚未打开任务。
打开一个任务文件夹（含 task.json 和 reference.cu）或一个会话，即可在此查看其内核。</translation>
    </message>
</context>
<context>
    <name>kforge::KernelListModel</name>
    <message numerus="yes">
        <location filename="../views/compare/kernellistmodel.cpp" line="+51"/>
        <source>%1
%n launch(es) in the timed runs</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launches/run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time/run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared mem</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::KernelTimeChart</name>
    <message>
        <location filename="../views/charts/kerneltimechart.cpp" line="+35"/>
        <source>Time per run (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No session is open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Select variants to see their kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>#%1: not evaluated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>#%1: no kernel trace (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no kernels</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::LlmClient</name>
    <message>
        <location filename="../core/llm/llmtransferloop.cpp" line="+62"/>
        <source>no API key was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from the environment variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from the keychain entry &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+205"/>
        <source>libcurl refused the transfer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+251"/>
        <source>the server asked to wait %1 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::LlmErrors</name>
    <message>
        <location filename="../core/llm/llmerrors.cpp" line="+97"/>
        <source>The request was not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Could not resolve the host name &apos;%1&apos;. Check the endpoint&apos;s base URL and the network or DNS settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The secure connection (TLS) to %1 failed: %2. If the server uses a private certificate authority, set the endpoint&apos;s CA bundle; verification stays on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the certificate could not be verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The connection to %1 broke in the middle of the answer, after %2 characters; the answer is incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 sent nothing for %2 s, so the request was abandoned (idle timeout).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The request to %1 took longer than the limit of %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 rejected the API key (HTTP %2). Check the key%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not found (HTTP 404) at %1: either the model &apos;%2&apos; does not exist there or the base URL is wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 rejected the request (HTTP %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-110"/>
        <source> after %1 attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Could not connect to %1%2: nothing accepted the connection. Is the server running and is the base URL right?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Connecting to %1 timed out after %2 s%3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The connection to %1 broke before the answer began%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 is rate limiting the requests (HTTP 429)%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 had a server error%2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 answered with the unexpected HTTP status %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The stream from %1 ended without its end marker after %2 characters: the answer is incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 sent a stream event that could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 reported an error in the middle of the stream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 stopped the answer with its content filter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::LogHub</name>
    <message>
        <location filename="../core/log/loghub.cpp" line="+78"/>
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Info</source>
        <translation>信息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>kforge::LogPanel</name>
    <message>
        <location filename="../views/log/logpanel.cpp" line="+33"/>
        <source>Show messages from: %1</source>
        <translation>显示来自 %1 的消息</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>All levels</source>
        <translation>所有级别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Info and above</source>
        <translation>信息及以上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warnings and errors</source>
        <translation>警告和错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter messages</source>
        <translation>筛选消息</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove every message from the log</source>
        <translation>移除日志中的所有消息</translation>
    </message>
</context>
<context>
    <name>kforge::MainActions</name>
    <message>
        <location filename="../app/gui/mainactions.cpp" line="+28"/>
        <source>Open &amp;Task Folder…</source>
        <translation>打开任务文件夹(&amp;T)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a task: a folder with task.json and reference.cu</source>
        <translation>打开任务：包含 task.json 和 reference.cu 的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;Session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a KForge session file (*.kforge)</source>
        <translation>打开 KForge 会话文件（*.kforge）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save Session &amp;As…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the open task or session as a session file</source>
        <translation>将打开的任务或会话保存为会话文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>R&amp;eplace…</source>
        <translation>替换(&amp;E)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;About KForge</source>
        <translation>关于 KForge(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
</context>
<context>
    <name>kforge::MainWindow</name>
    <message>
        <location filename="../app/gui/mainwindow.cpp" line="+92"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Main Tool Bar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The new language is used from the next start of KForge.</source>
        <translation>新语言将在下次启动 KForge 时生效。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open Task Folder</source>
        <translation>打开任务文件夹</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not open the task folder %1:
%2</source>
        <translation>无法打开任务文件夹 %1：
%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Opened task %1 (%2)</source>
        <translation>已打开任务 %1（%2）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KForge sessions (*.kforge);;All files (*)</source>
        <translation>KForge 会话 (*.kforge);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Could not open the session %1:
%2</source>
        <translation>无法打开会话 %1：
%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Opened session %1</source>
        <translation>已打开会话 %1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n round(s) of this session were interrupted and can be resumed.</source>
        <translation>
            <numerusform>此会话有 %n 轮被中断，可以继续。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Save Session As</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KForge sessions (*.kforge)</source>
        <translation>KForge 会话 (*.kforge)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>There is nothing to save: open a task folder or a session first.</source>
        <translation>没有可保存的内容：请先打开任务文件夹或会话。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not replace %1.</source>
        <translation>无法替换 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Could not copy the session to %1.</source>
        <translation>无法将会话复制到 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not create the session %1:
%2</source>
        <translation>无法创建会话 %1：
%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved session %1</source>
        <translation>已保存会话 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+75"/>
        <source>KForge</source>
        <translation>KForge</translation>
    </message>
    <message>
        <location line="-62"/>
        <location line="+13"/>
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>variant %1</source>
        <translation>变体 %1</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 — KForge</source>
        <translation>%1 — KForge</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Looking for nvcc…</source>
        <translation>正在查找 nvcc…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>nvcc %1</source>
        <translation>nvcc %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CUDA compiler: %1 (%2)</source>
        <translation>CUDA 编译器：%1（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No CUDA compiler</source>
        <translation>没有 CUDA 编译器</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: the command cannot be started here (is kforge-worker built or installed?)</source>
        <translation>%1：无法在此启动该命令（kforge-worker 是否已构建或安装？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No GPU worker configured</source>
        <translation>未配置 GPU 工作进程</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n GPU worker(s)</source>
        <translation>
            <numerusform>%n 个 GPU 工作进程</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings → Workers</source>
        <translation>设置 → 工作进程</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Compiling and evaluating need a CUDA toolkit (nvcc) or a configured GPU worker — Settings → Workers.</source>
        <translation>编译和评测需要 CUDA 工具包（nvcc）或已配置的 GPU 工作进程——设置 → 工作进程。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No GPU worker is configured: kernels can be compiled here but not evaluated — Settings → Workers.</source>
        <translation>未配置 GPU 工作进程：可以在本机编译内核，但无法评测——设置 → 工作进程。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>About KForge</source>
        <translation>关于 KForge</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;KForge %1&lt;/h3&gt;&lt;p&gt;A workbench for making CUDA kernels faster with a language model in the loop: the model is shown earlier variants with their measured speedups and profiles, explains why the faster ones are faster, and writes a better kernel. You steer every round and see why variant A beats B.&lt;/p&gt;&lt;p&gt;Kernels are compiled with nvcc and run only in a separate worker process, locally or on a GPU host.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;KForge %1&lt;/h3&gt;&lt;p&gt;借助语言模型让 CUDA 内核更快的工作台：模型会看到此前的变体及其实测加速比和性能剖析，解释更快的变体为何更快，然后写出更好的内核。每一轮都由你掌控，并能看清变体 A 为何胜过 B。&lt;/p&gt;&lt;p&gt;内核由 nvcc 编译，只在独立的工作进程中运行，可在本机或 GPU 主机上。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>kforge::NoticeBar</name>
    <message>
        <location filename="../app/gui/noticebar.cpp" line="+26"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>kforge::PoolEvaluator</name>
    <message>
        <location filename="../core/worker/poolevaluator.cpp" line="+67"/>
        <source>The evaluator has no compiler or worker pool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No task was given for the evaluation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The task&apos;s reference does not compile: %1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+42"/>
        <source>The evaluation was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::PriceTable</name>
    <message>
        <location filename="../core/llm/pricetable.cpp" line="+63"/>
        <source>The price table is not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The price of &apos;%1&apos; needs non-negative numbers &quot;input&quot; and &quot;output&quot; ($ per million tokens).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::PromptBuilder</name>
    <message>
        <location filename="../core/optimizer/promptbuilder.cpp" line="+263"/>
        <source>Prompt template &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Prompt template %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No measured variant to show the model: evaluate the reference first</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::PromptTemplate</name>
    <message>
        <location filename="../core/optimizer/prompttemplate.cpp" line="+54"/>
        <source>line %1: &quot;{{&quot; without &quot;}}&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <source>line %1: empty tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>line %1: {{/%2}} closes no section</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line %1: {{/%2}} closes {{#%3}} of line %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>line %1: {{#%2}} is never closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>line %1: no value for {{%2}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+98"/>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>there is no prompt template named &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ReasoningEntriesModel</name>
    <message>
        <location filename="../views/reasoning/reasoningentriesmodel.cpp" line="+21"/>
        <source>streaming, %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cut off at the token limit, %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 characters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ReasoningPanel</name>
    <message>
        <location filename="../views/reasoning/reasoningpanel.cpp" line="+77"/>
        <source>No answer yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Answers streamed while KForge runs, and those you opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show each new answer as it starts streaming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the answer as the model wrote it, code included, instead of the parsed analysis and design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The exact prompt this answer was given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The model&apos;s analysis and design appear here while a round streams, or when you select a variant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+81"/>
        <location line="+14"/>
        <source>Answer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Why #%1 beats #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Round %1 · repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Round %1 · repair of #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Round %1 · answer %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+168"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+32"/>
        <source>variant #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+21"/>
        <source>**The answer failed:** %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>*Variant #%1 has no analysis or design: it was not written by the model.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Reasoning (none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Reasoning (%n character(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::RequestBuilder</name>
    <message>
        <location filename="../core/llm/requestbuilder.cpp" line="+162"/>
        <source>The endpoint has no base URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not an http:// or https:// URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No model given, and endpoint &apos;%1&apos; has no default model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The request has no message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No API key for endpoint &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ResponseParser</name>
    <message>
        <location filename="../core/optimizer/responseparser.cpp" line="+286"/>
        <source>%1 code blocks define KF_ENTRY; used the one at line %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the code does not include &quot;kforge/kernel.h&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the answer was cut off inside its code block (line %1 opens a block that never closes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the answer is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the answer has no code block</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>no code block defines KF_ENTRY (%n block(s) in the answer)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the model stopped at its token limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+51"/>
        <source>no performance analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no algorithm design</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::RooflineChart</name>
    <message>
        <location filename="../views/charts/rooflinechart.cpp" line="+18"/>
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Performance (GFLOP/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>No session is open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+47"/>
        <source>%1 kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 whole task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Select measured variants to place their kernels on the roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected variants have no roofline data (no FLOP and byte counts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>memory roof %1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>FP32 roof %1 GFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No device peaks measured: the roofs are missing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::RoundControlPanel</name>
    <message>
        <location filename="../views/roundcontrol/roundcontrolpanel.cpp" line="+37"/>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>measuring the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>choosing exemplars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for you to send the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model is answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>evaluating the answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+14"/>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-13"/>
        <source>stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>$%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The service that answers (Settings → Endpoints)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Model name as the endpoint knows it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model</source>
        <translation type="unfinished">模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Endpoint:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Answers asked for per round, sent concurrently</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measured variants shown to the model in the prompt (K)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speedup buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fastest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Most different</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How exemplars are chosen; pinned variants are always shown, excluded ones never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How often a candidate that fails to compile or verify is sent back with the diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A hint for the model, e.g. “try vectorized loads”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Review the prompt before it is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Candidates:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exemplars:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chosen by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repair attempts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hint:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preview Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+276"/>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-275"/>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resume Interrupted Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue the round a previous KForge left unfinished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Preview the prompt, or turn on review to edit it before a round sends it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%v of %m candidates done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+80"/>
        <source>No interrupted round is left to resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Round %1 %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Round %1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+83"/>
        <source>No session is open — open a task folder or a session file to run rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No GPU worker configured — &lt;a href=&quot;workers&quot;&gt;Settings → Workers&lt;/a&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No endpoint configured — &lt;a href=&quot;endpoints&quot;&gt;Settings → Endpoints&lt;/a&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The workbench has no round runner: rounds cannot run here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Open a session with a task first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Configure a GPU worker and an endpoint first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A round is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Round %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Tokens: %1 this round, %2 in the session (%3 requests) · cost %4 this round, %5 in the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+45"/>
        <source>No API key for %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+24"/>
        <source>No GPU worker configured: add one in Settings → Workers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No endpoint configured: add one in Settings → Endpoints.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The round did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Preview: a round draws its own exemplars, so they may differ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preview: no measured variant yet; the first round measures the reference and shows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The prompt did not render: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Review the prompt; edit it if you like, then Send.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sent prompt</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::RoundProgressModel</name>
    <message>
        <location filename="../views/roundcontrol/roundprogressmodel.cpp" line="+71"/>
        <source>repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>repair of #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>answer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+76"/>
        <source>generating (%1 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no code in the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no variant: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::RoundRunner</name>
    <message>
        <location filename="../core/optimizer/roundrunner.cpp" line="+154"/>
        <source>Cannot write the session&apos;s task to a temporary folder: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The session&apos;s task does not load: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+21"/>
        <source>round budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>session budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+677"/>
        <source>Open a session with a task first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-675"/>
        <location line="+299"/>
        <source>A round is already running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-297"/>
        <source>A round needs at least one candidate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+711"/>
        <source>The session budget is spent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-672"/>
        <source>The session has no reference variant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The reference itself did not verify (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No correct, measured variant to show the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+38"/>
        <source>The prompt was not sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+105"/>
        <location line="+52"/>
        <source>Stopped by the user.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-50"/>
        <source>No answer arrived.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped early: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Not evaluated: the round was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Open a session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>There is no round %1 in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Round %1 is %2; only an interrupted round can be resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The process ended while this answer was streaming.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+86"/>
        <source>the answer did not arrive complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+107"/>
        <source>The evaluation was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+32"/>
        <source>The reference could not be measured: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+102"/>
        <source>The variant has no source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source>There is no variant %1 to fork.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fork of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>There is no variant %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Variant %1 is being evaluated already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Choose two variants of the open session.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::ScriptedEvaluator</name>
    <message>
        <location filename="../core/worker/scriptedevaluator.cpp" line="+21"/>
        <source>The evaluation was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No script.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::SessionExportSource</name>
    <message>
        <location filename="../core/export/sessionexportsource.cpp" line="+52"/>
        <source>the session has no correct variant besides the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every correct variant is marked suspicious and not yet accepted: %1; review and accept one, or name it explicitly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+34"/>
        <source>the session has no variant %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-33"/>
        <source>&apos;%1&apos; is neither a variant id nor &apos;best&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the session has no task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the session&apos;s task.json does not parse: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>variant %1 has not been evaluated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>variant %1 is not correct (its latest evaluation says %2); only verified kernels are exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+40"/>
        <source>marked for review</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::SessionSchema</name>
    <message>
        <location filename="../core/session/sessionschema.cpp" line="+118"/>
        <source>SQL error in &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <source>the file is an SQLite database but not a KForge session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cannot read the schema version: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the session was written by a newer KForge (schema version %1; this one reads up to %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>cannot start a transaction: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>migration to schema version %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::SessionStore</name>
    <message>
        <location filename="../core/session/sessionstore.cpp" line="+224"/>
        <source>Session database error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 is not a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The folder of %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is open in another process (%2, pid %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot lock %1: no permission to write next to it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+7"/>
        <source>Cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+53"/>
        <source>the process running this round ended before it finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+29"/>
        <location line="+153"/>
        <location line="+219"/>
        <location line="+107"/>
        <location line="+47"/>
        <location line="+29"/>
        <location line="+57"/>
        <location line="+16"/>
        <location line="+19"/>
        <location line="+70"/>
        <location line="+20"/>
        <location line="+35"/>
        <location line="+16"/>
        <source>No session is open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-786"/>
        <source>The session already holds the task %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+8"/>
        <location line="+12"/>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-15"/>
        <source>%1: invalid JSON at offset %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+52"/>
        <source>reference</source>
        <translation type="unfinished">参考实现</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 lists the variant %2, which is not in the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The session holds no task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot create the folder of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+144"/>
        <location line="+11"/>
        <location line="+90"/>
        <location line="+36"/>
        <source>No variant %1 in this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-17"/>
        <source>faster than the speed-of-light floor of the task, which is impossible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1x faster, and the output does not depend on the inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1x faster than the reference (over %2x): check it before it is used as an exemplar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+214"/>
        <source>No response %1 in this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+62"/>
        <source>No round %1 in this session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::SettingsDialog</name>
    <message>
        <location filename="../views/settings/settingsdialog.cpp" line="+23"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Show the defaults of this page</source>
        <translation>显示本页的默认值</translation>
    </message>
</context>
<context>
    <name>kforge::SpeedupChart</name>
    <message>
        <location filename="../views/charts/speedupchart.cpp" line="+22"/>
        <source>reference (1×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>best so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>correct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>suspicious (not yet accepted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup over the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+38"/>
        <source>No variants yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No session is open</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::StreamDecoder</name>
    <message>
        <location filename="../core/llm/streamdecoder.cpp" line="+31"/>
        <source>the response body is larger than %1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+16"/>
        <source>a stream event is larger than %1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+89"/>
        <source>invalid JSON (%1) in &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not an object</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::TemplateRenderer</name>
    <message>
        <location filename="../core/export/templaterenderer.cpp" line="+15"/>
        <source>Export template %1 is missing from this build</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <source>no value for placeholder {{%1}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Export template %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::TimingPage</name>
    <message>
        <location filename="../views/settings/timingpage.cpp" line="+21"/>
        <source>Each trial verifies the kernel on freshly generated inputs with a new seed.</source>
        <translation>每次试验都用新种子重新生成输入来验证内核。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timed runs of each kernel at least.</source>
        <translation>每个内核至少计时运行的次数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Keep timing until at least this much time was measured.</source>
        <translation>持续计时，直到累计测量时间至少达到此值。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop after this many timed runs even if the minimum time is not reached.</source>
        <translation>达到此计时运行次数后停止，即使未达到最短时间。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Untimed runs before timing starts.</source>
        <translation>计时开始前不计时的运行次数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reference and the candidate are timed interleaved, in the same process, on the same inputs, with the L2 cache flushed between runs.</source>
        <translation>参考实现与候选内核在同一进程中、以相同输入交替计时，每次运行之间清空 L2 缓存。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Verification &amp;trials:</source>
        <translation>验证试验次数(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Minimum &amp;runs:</source>
        <translation>最少运行次数(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Minimum &amp;time:</source>
        <translation>最短时间(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ma&amp;ximum runs:</source>
        <translation>最多运行次数(&amp;X)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Warm-up runs:</source>
        <translation>预热运行次数(&amp;W)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Timing</source>
        <translation>计时</translation>
    </message>
</context>
<context>
    <name>kforge::ToolchainProbe</name>
    <message>
        <location filename="../core/settings/toolchainprobe.cpp" line="+48"/>
        <source>The configured CUDA compiler %1 does not exist or is not executable.</source>
        <translation>配置的 CUDA 编译器 %1 不存在或不可执行。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 --version failed: %2</source>
        <translation>%1 --version 执行失败：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Could not run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
</context>
<context>
    <name>kforge::TorchExporter</name>
    <message>
        <location filename="../core/export/torchexporter.cpp" line="+214"/>
        <source>the kernel ABI header is missing from this build</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::VariantMeasurement</name>
    <message>
        <location filename="../views/variants/variantmeasurement.cpp" line="+120"/>
        <source>the candidate was not measured (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the result holds no timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+72"/>
        <source>the evaluation ran without the metrics pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the worker sent no metrics for the candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the profiler gave no reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no kernel was profiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+37"/>
        <source>the evaluation ran without a kernel trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the tracer gave no reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::VariantsModel</name>
    <message>
        <location filename="../views/variants/variantsmodel.cpp" line="+140"/>
        <source>reference</source>
        <translation type="unfinished">参考实现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>manual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>generated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>verifying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>profiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>suspicious</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>degenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>below speed of light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>side-stream work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>late work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unstable timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>scripted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+83"/>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (spills %2 B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>excluded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Suspicious: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Reference median time divided by this variant&apos;s median time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The task&apos;s speed-of-light floor as a percentage of the measured time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What limits the kernels, from the roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers per thread of the longest-running kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pinned variants are always shown to the model; excluded ones never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>% SOL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exemplar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::VariantsPanel</name>
    <message>
        <location filename="../views/variants/variantspanel.cpp" line="+34"/>
        <source>Filter by id, label, tag or status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspicious</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excluded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show only variants in this state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Correct only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Show all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+30"/>
        <source>No session is open.
Open a task folder or a session file to see its variants.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+72"/>
        <source>%n variant(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Compare the Two Selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show Parents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show Children</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show All Variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin as Exemplar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exclude from Exemplars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Include in Exemplars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Accept Suspicious Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You checked the result: let the sampler show it to the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tags…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fork to Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Tags of %n variant(s), separated by commas:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>#%1 has no parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>#%1 and its parents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>#%1 has no children</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>#%1 and its %n child(ren)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kforge::WorkerClient</name>
    <message>
        <location filename="../core/worker/workerclient.cpp" line="+25"/>
        <source>killed by signal %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>exit code %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+77"/>
        <source>kforge-worker was not found (next to this program, in the build tree or on PATH). Build it with the CUDA toolkit, or configure a worker command such as &apos;ssh gpu-host kforge-worker&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The worker command is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+341"/>
        <source>The worker was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="-239"/>
        <source>The request was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+78"/>
        <source>The worker speaks protocol version %1; this KForge speaks version %2. Install matching versions of KForge and kforge-worker.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The worker refused the handshake: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Ignored a response to request %1, which is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The worker did not report ready within %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not start the worker &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+40"/>
        <source>The worker exited before it was ready (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No answer within %1 s; the worker was stopped (the kernel may hang).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The worker died during &apos;%1&apos; (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The worker exited unexpectedly (%1).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::WorkerPool</name>
    <message>
        <location filename="../core/worker/workerpool.cpp" line="+65"/>
        <source>The worker was removed from the pool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+95"/>
        <source>The evaluation was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No GPU worker is configured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+86"/>
        <source>The reference kernel could not be loaded: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kforge::WorkersPage</name>
    <message>
        <location filename="../views/settings/workerspage.cpp" line="+23"/>
        <source>A worker is a command that starts kforge-worker, which runs the kernels on one GPU. Examples: &lt;tt&gt;kforge-worker --device 0&lt;/tt&gt;, &lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;, &lt;tt&gt;srun --gpus=1 kforge-worker&lt;/tt&gt;. Several workers evaluate in parallel.</source>
        <translation>工作进程是一条启动 kforge-worker 的命令，它在一块 GPU 上运行内核。例如：&lt;tt&gt;kforge-worker --device 0&lt;/tt&gt;、&lt;tt&gt;ssh gpu-box kforge-worker&lt;/tt&gt;、&lt;tt&gt;srun --gpus=1 kforge-worker&lt;/tt&gt;。多个工作进程可并行评测。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kernel transfer</source>
        <translation>内核传输方式</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File path (same machine)</source>
        <translation>文件路径（同一台机器）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inline (remote host)</source>
        <translation>内联（远程主机）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
</context>
<context>
    <name>kforge::cli</name>
    <message>
        <location filename="../app/cli/cmd_eval.cpp" line="-201"/>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>, compiled in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Worker</source>
        <translation type="unfinished">工作进程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CUDA error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 trials, max abs err %2, max rel err %3, %4 mismatches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>first mismatch: %1[%2] expected %3, got %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 NaN, %2 Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the candidate modified an input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warning: the output does not depend on the inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>median ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p90</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reference</source>
        <translation type="unfinished">参考实现</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Candidate kernels (CUPTI)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1/run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Kernel resources (ptxas)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 regs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 B smem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>spills %1/%2 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kernel output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Turnaround</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Compiles the task&apos;s reference and the candidate, verifies the candidate against the reference on a GPU worker and times both.

Exit status: 0 the candidate is correct; 1 it is not (incorrect, crashed, timed out, does not compile or load); 2 bad input; 3 no verdict (no worker or no GPU).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A task folder (task.json + reference.cu).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The candidate kernel source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Print the result as JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The worker command (default: the first worker in Settings, &apos;kforge-worker --device 0&apos;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compile for this GPU architecture (default: the worker&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sm_XY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skip the hardware metrics pass (faster).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+8"/>
        <source>kforge-cli eval: expected a task folder and a candidate source; see --help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+10"/>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot read the candidate %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+41"/>
        <source>… %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="+28"/>
        <source>KForge: make CUDA kernels faster with a language model in the loop.</source>
        <translation>KForge：借助语言模型让 CUDA 内核更快。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A task folder or a session file (*.kforge) to open.</source>
        <translation>要打开的任务文件夹或会话文件（*.kforge）。</translation>
    </message>
</context>
</TS>
