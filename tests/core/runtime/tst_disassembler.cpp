// The worker's disassembler without a GPU: where cuobjdump and nvdisasm are looked for, how their output is
// capped and their time limited, the reply of the "disassemble" op with each tool missing (stand-in tools
// that behave like the real ones), the op through a real worker process, and, where the toolkit has the
// tools, a real kernel's SASS with line info.
#include "workertest.h"

#include "core/runtime/worker/disassembler.h"
#include "core/runtime/worker/kernellibrary.h"

#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace kforge::runtime;
using namespace kforge::runtime::test;

namespace {

void writeScript(const fs::path &file, const std::string &body)
{
    std::ofstream(file) << "#!/bin/sh\n" << body;
    fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
}

// Stand-ins with the real tools' command lines: cuobjdump -xelf all X writes X.N.sm_XX.cubin files into
// the working directory; nvdisasm --print-line-info-inline -c F prints line-info comments (an inlined-at chain among them) and F's text.
void fakeCuobjdump(const fs::path &dir)
{
    writeScript(dir / "cuobjdump", R"(case "$1" in
--version) echo "cuobjdump: NVIDIA (R) CUDA Object Utility"; echo "Cuda compilation tools, release 13.0, V13.0.88";;
-xelf) grep -q NODEVICE "$3" && { echo "cuobjdump info    : File '$3' does not contain device code" >&2; exit 255; }
       printf 'CUBIN-ONE chase' > "$3.1.sm_90.cubin"; printf 'CUBIN-TWO' > "$3.2.sm_80.cubin";;
-sass) echo ""; echo "	code for sm_90"; echo "arch = sm_90"; echo "        /*0000*/  MOV R1, c[0x0][0x28] ;";;
*) echo "unexpected $*" >&2; exit 2;;
esac
)");
}

void fakeNvdisasm(const fs::path &dir)
{
    writeScript(dir / "nvdisasm", R"(case "$1" in
--version) echo "nvdisasm: NVIDIA (R) CUDA disassembler"; echo "Cuda compilation tools, release 13.0, V13.0.88";;
--print-line-info-inline) [ "$2" = "-c" ] || exit 3
       printf '.text._Z1f:\n\t//## File "/h/x.hpp", line 5 inlined at "/k/k.cu", line 9\n\t//## File "/k/k.cu", line 9\n        /*0020*/ FMUL R1, R2, R3 ;\n'
       echo "	//## File \"/abs/candidate.cu\", line 12"; cat "$3"; echo
       if grep -q ONE "$3"; then head -c 300000 /dev/zero | tr '\0' 'x'; fi;;
*) echo "unexpected $*" >&2; exit 2;;
esac
)");
}

ToolSearch only(const fs::path &dir)
{
    ToolSearch s;
    s.path = dir.string();
    s.extraDirs.clear();
    return s;
}

void testSearch(const fs::path &root)
{
    ToolSearch s;
    s.path = "/a::/b:/a";
    s.cudaHome = "/cuda";
    s.cudaPath = "/b/..";
    const std::vector<fs::path> dirs = s.directories();
    KF_CHECK_MSG((dirs == std::vector<fs::path>{"/a", "/b", "/cuda/bin", "/b/../bin", "/usr/local/cuda/bin"}),
                 std::to_string(dirs.size()));
    // The message says where a toolkit was looked for, never the whole PATH.
    KF_CHECK_CONTAINS(s.describe(), "PATH=/a::/b:/a, CUDA_HOME=/cuda, CUDA_PATH=/b/..");
    KF_CHECK_CONTAINS(ToolSearch{}.describe(), "PATH=(unset), CUDA_HOME=(unset), /usr/local/cuda/bin");
    ToolSearch long_;
    long_.path = "/home/u/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/CUDA-12.4/bin:/snap/bin";
    KF_CHECK_CONTAINS(long_.describe(), "PATH (9 folders, CUDA's: /opt/CUDA-12.4/bin), CUDA_HOME=(unset)");
    long_.path.replace(long_.path.find("/opt/CUDA-12.4/bin"), 18, "/opt/tools/bin");
    KF_CHECK_CONTAINS(long_.describe(), "PATH (9 folders, none of them CUDA's)");
    KF_CHECK(long_.describe().find("/snap/bin") == std::string::npos);

    // The first directory has a file that is not executable and a folder with the tool's name: both skipped.
    const fs::path first = root / "first", second = root / "second", home = root / "home";
    fs::create_directories(first / "nvdisasm");
    fs::create_directories(second);
    fs::create_directories(home / "bin");
    std::ofstream(first / "cuobjdump") << "not a program";
    fakeCuobjdump(second);
    fakeNvdisasm(home / "bin");
    ToolSearch t = only(first);
    t.path = first.string() + ":" + second.string();
    t.cudaHome = home.string();
    KF_CHECK(t.find("cuobjdump") == second / "cuobjdump");
    KF_CHECK(t.find("nvdisasm") == home / "bin" / "nvdisasm"); // from CUDA_HOME/bin
    KF_CHECK(!t.find("ptxas-that-is-not-there"));
    const Disassembler d(t);
    KF_CHECK(d.cuobjdump() && d.nvdisasm());
}

void testNames()
{
    KF_CHECK(Disassembler::toolVersion("nvdisasm", "Cuda compilation tools, release 13.0, V13.0.88\n") == "nvdisasm 13.0.88");
    KF_CHECK(Disassembler::toolVersion("cuobjdump", "release 12.4") == "cuobjdump 12.4");
    KF_CHECK(Disassembler::toolVersion("nvdisasm", "") == "nvdisasm");
    KF_CHECK(Disassembler::archFromName("candidate-3.1.sm_90.cubin") == "sm_90");
    KF_CHECK(Disassembler::archFromName("k.2.sm_90a.cubin") == "sm_90a");
    KF_CHECK(Disassembler::archFromName("k.cubin").empty());
}

// The shape of `nvdisasm --print-line-info-inline -c` (CUDA 13.0): location lines above the instructions they
// cover; an inlined instruction has a chain from the header line out to the kernel's own line.
void testInlineTable()
{
    const std::string sass = R"(	.target	sm_90

//--------------------- .text._Z4relu --------------------------
	.section	.text._Z4relu,"ax",@progbits
_Z4relu:
.text._Z4relu:
	//## File "/k/vec8.cu", line 10
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
	//## File "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_bf16.hpp", line 585 inlined at "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_bf16.hpp", line 597
	//## File "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_bf16.hpp", line 597 inlined at "/k/vec8.cu", line 17
	//## File "/k/vec8.cu", line 17
        /*01e0*/                   HMNMX2.BF16_V2 R15, R7, RZ.H0_H0, !PT ;
        /*01f0*/                   HMNMX2.BF16_V2 R14, R6, RZ.H0_H0, !PT ;
	//## File "/k/vec8.cu", line 18
        /*0200*/                   STG.E.128 desc[UR4][R2.64], R12 ;
//--------------------- .text._Z5other --------------------------
.text._Z5other:
        /*0000*/                   EXIT ;
	//## File "/k/other.cu", line 3
        /*0010*/                   BRA 0x10;
)";
    const InlineTable t = parseInlineLineInfo(sass);
    KF_CHECK(t.size() == 6);
    const InlineChain &first = t.at({"_Z4relu", 0x0});
    KF_CHECK(first.size() == 1 && first[0].file == "/k/vec8.cu" && first[0].line == 10);
    KF_CHECK(t.at({"_Z4relu", 0x10}).size() == 1);
    const InlineChain &inl = t.at({"_Z4relu", 0x1e0});
    KF_CHECK_MSG(inl.size() == 3, std::to_string(inl.size()));
    if (inl.size() == 3) {
        KF_CHECK(inl[0].file == "/usr/local/cuda/targets/x86_64-linux/include/cuda_bf16.hpp" && inl[0].line == 585);
        KF_CHECK(inl[1].line == 597 && inl[2].file == "/k/vec8.cu" && inl[2].line == 17);
    }
    KF_CHECK(t.at({"_Z4relu", 0x1f0}).size() == 3);
    KF_CHECK(t.at({"_Z4relu", 0x200}).size() == 1 && t.at({"_Z4relu", 0x200})[0].line == 18);
    // A function starts without a location: its first instruction has none; offsets are per function.
    KF_CHECK(!t.count({"_Z5other", 0x0}));
    KF_CHECK(t.at({"_Z5other", 0x10})[0].file == "/k/other.cu");
    KF_CHECK(parseInlineLineInfo("").empty());
}

void testRunTool(const fs::path &root)
{
    // Output beyond the cap is read and dropped: the tool finishes normally.
    ToolRun r = runTool({"/bin/sh", "-c", "head -c 1000000 /dev/zero; echo done >&2"}, root, 1000, 30);
    KF_CHECK(r.ok() && r.out.size() == 1000 && r.outTruncated && r.err == "done\n");
    r = runTool({"/bin/sh", "-c", "printf abc; exit 3"}, root, 1000, 30);
    KF_CHECK(r.started && r.exitStatus == 3 && !r.ok() && r.out == "abc" && !r.outTruncated);
    // The working directory is the one given.
    r = runTool({"/bin/pwd"}, root, 1000, 30);
    KF_CHECK(r.ok() && fs::equivalent(fs::path(r.out.substr(0, r.out.size() - 1)), root));
    // Killed at the time limit, its children too.
    const auto t0 = std::chrono::steady_clock::now();
    r = runTool({"/bin/sh", "-c", "sleep 30 & sleep 30"}, root, 1000, 0.5);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    KF_CHECK_MSG(r.timedOut && !r.ok() && s < 5, std::to_string(s));
    // No descriptor of ours reaches the tool (the worker's protocol pipes must not).
    const int fd = ::open("/dev/null", O_RDONLY); // without O_CLOEXEC
    ::dup2(fd, 57);
    r = runTool({"/bin/sh", "-c", "ls /proc/$$/fd"}, root, 1000, 30);
    KF_CHECK_MSG(r.ok() && r.out.find("57") == std::string::npos, r.out);
    ::close(57);
    ::close(fd);
    r = runTool({(root / "missing-tool").string()}, root, 1000, 30);
    KF_CHECK(!r.ok() && r.exitStatus == 127);
}

void testDisassemble(const fs::path &root)
{
    const fs::path both = root / "both", objOnly = root / "obj", disOnly = root / "dis", none = root / "none";
    for (const fs::path &d : {both, objOnly, disOnly, none})
        fs::create_directories(d);
    fakeCuobjdump(both);
    fakeNvdisasm(both);
    fakeCuobjdump(objOnly);
    fakeNvdisasm(disOnly);
    const fs::path lib = root / "candidate-3.so";
    std::ofstream(lib) << "ELF with device code";
    const fs::path work = root / "work";
    fs::create_directories(work);

    // Both tools: one entry per cubin, nvdisasm's text as it is.
    Json j = Disassembler(only(both)).disassemble(lib, work);
    KF_CHECK_MSG(j["tool"] == "nvdisasm 13.0.88" && j["arch"] == "sm_90" && !j.contains("cuobjdump_sass"),
                 j.dump().substr(0, 400));
    KF_CHECK(j["cubins"].size() == 2);
    KF_CHECK(j["cubins"][0]["name"] == "candidate-3.so.1.sm_90.cubin" && j["cubins"][1]["arch"] == "sm_80");
    KF_CHECK_CONTAINS(j["cubins"][1]["sass"].get<std::string>(), "//## File \"/abs/candidate.cu\", line 12");
    KF_CHECK_CONTAINS(j["cubins"][1]["sass"].get<std::string>(), "CUBIN-TWO");
    KF_CHECK(j["cubins"][0]["sass"].get<std::string>().size() > 300000 && j["cubins"][0]["truncated"] == false);
    // Nothing is left behind in the work folder.
    KF_CHECK(fs::is_empty(work));

    // Caps: per cubin, then for the whole reply.
    DisassemblyLimits small;
    small.sassCapBytes = 100000;
    small.totalCapBytes = 100010;
    j = Disassembler(only(both), small).disassemble(lib, work);
    KF_CHECK(j["cubins"][0]["sass"].get<std::string>().size() == 100000 && j["cubins"][0]["truncated"] == true);
    KF_CHECK(j["cubins"][1]["sass"].get<std::string>().size() == 10 && j["cubins"][1]["truncated"] == true);
    small.totalCapBytes = 100000;
    j = Disassembler(only(both), small).disassemble(lib, work);
    KF_CHECK(j["cubins"][1]["sass"] == "" && j["cubins"][1]["truncated"] == true);

    // cuobjdump alone: its own SASS listing of the whole library.
    j = Disassembler(only(objOnly)).disassemble(lib, work);
    KF_CHECK(j["tool"] == "cuobjdump 13.0.88" && j["arch"] == "sm_90" && j["cubins"].empty());
    KF_CHECK_CONTAINS(j["cuobjdump_sass"].get<std::string>(), "MOV R1");

    // No tool, or nvdisasm without cuobjdump (which extracts the cubins): no_disassembler, saying where it looked.
    for (const fs::path &d : {none, disOnly}) {
        try {
            Disassembler(only(d)).disassemble(lib, work);
            KF_CHECK_MSG(false, "no error without cuobjdump in " + d.string());
        } catch (const DisassemblyError &e) {
            KF_CHECK(e.code == "no_disassembler");
            KF_CHECK_CONTAINS(e.message, "PATH=" + d.string());
            KF_CHECK_CONTAINS(e.message, "CUDA_HOME=(unset)");
            KF_CHECK_CONTAINS(e.message,
                              d == none ? "neither cuobjdump nor nvdisasm found on the worker host" : "not cuobjdump");
        }
    }

    // The inline chains of a cubin, through nvdisasm; without nvdisasm none.
    const InlineTable chains = Disassembler(only(both)).inlineTable(Cubin{"k.sm_90.cubin", "sm_90", "CUBIN"}, work);
    KF_CHECK(chains.size() == 1 && chains.count({"_Z1f", 0x20}) && chains.at({"_Z1f", 0x20}).back().line == 9);
    KF_CHECK(Disassembler(only(objOnly)).inlineTable(Cubin{"k.sm_90.cubin", "sm_90", "CUBIN"}, work).empty());
    KF_CHECK(fs::is_empty(work));

    // A library without device code: no cubins, no error.
    const fs::path host = root / "host-only.so";
    std::ofstream(host) << "NODEVICE";
    std::string error;
    KF_CHECK(Disassembler(only(both)).extractCubins(host, work, error).empty() && error.empty());
    j = Disassembler(only(both)).disassemble(host, work);
    KF_CHECK(j["cubins"].empty() && j["arch"] == "");
    // A failing cuobjdump: disassemble_failed with its message.
    const fs::path broken = root / "broken";
    fs::create_directories(broken);
    writeScript(broken / "cuobjdump", "echo 'cuobjdump fatal   : Could not open input file' >&2; exit 1\n");
    fakeNvdisasm(broken);
    try {
        Disassembler(only(broken)).disassemble(lib, work);
        KF_CHECK(false);
    } catch (const DisassemblyError &e) {
        KF_CHECK(e.code == "disassemble_failed");
        KF_CHECK_CONTAINS(e.message, "Could not open input file");
    }
}

// The op through a real worker process (no GPU needed), with the stand-in tools first on its PATH.
void testProtocol(const fs::path &root)
{
    const char *worker = std::getenv("KFORGE_WORKER");
    if (!worker || !*worker) {
        std::printf("KFORGE_WORKER is not set: the protocol part is not run\n");
        return;
    }
    const fs::path tools = root / "both";
    WorkerClient w({"/usr/bin/env", "PATH=" + tools.string() + ":/usr/bin:/bin", "CUDA_HOME=", worker});
    std::string error;
    if (!w.start(error, 60)) {
        KF_CHECK_MSG(false, error);
        return;
    }
    const fs::path lib = root / "candidate-3.so";
    WorkerClient::Reply r = w.request(Json{{"op", "disassemble"}, {"path", lib.string()}}, 60);
    KF_CHECK_MSG(r.ok() && r.message.value("ok", false), r.message.dump().substr(0, 400));
    KF_CHECK(r.message.value("tool", "") == "nvdisasm 13.0.88" && r.message["cubins"].size() == 2);
    std::string bytes = "ELF with device code";
    r = w.request(Json{{"op", "disassemble"}, {"so_base64", encodeBase64(bytes)}}, 60);
    KF_CHECK_MSG(r.ok() && r.message.value("ok", false) && r.message["cubins"].size() == 2, r.message.dump().substr(0, 400));
    r = w.request(Json{{"op", "disassemble"}, {"slot", "candidate"}}, 60);
    KF_CHECK(errorCode(r) == "bad_request");
    KF_CHECK_CONTAINS(errorMessage(r), "no candidate loaded");
    r = w.request(Json{{"op", "disassemble"}}, 60);
    KF_CHECK(errorCode(r) == "bad_request");
    KF_CHECK_CONTAINS(errorMessage(r), "disassemble needs");
    r = w.request(Json{{"op", "disassemble"}, {"path", (root / "nothing.so").string()}}, 60);
    KF_CHECK(errorCode(r) == "load_failed");
    r = w.request(Json{{"op", "disassemble"}, {"so_base64", "***"}}, 60);
    KF_CHECK(errorCode(r) == "bad_request");
    r = w.request(Json{{"op", "no_such_op"}}, 60);
    KF_CHECK_CONTAINS(errorMessage(r), "disassemble");
    w.request(Json{{"op", "shutdown"}}, 30);

    // Without any tool on the host (only where /usr/local/cuda/bin has none either).
    ToolSearch bare;
    bare.path = "/nonexistent";
    if (!bare.find("cuobjdump") && !bare.find("nvdisasm")) {
        WorkerClient n({"/usr/bin/env", "PATH=/nonexistent", "CUDA_HOME=", worker});
        if (n.start(error, 60)) {
            r = n.request(Json{{"op", "disassemble"}, {"path", lib.string()}}, 60);
            KF_CHECK(errorCode(r) == "no_disassembler");
            KF_CHECK_CONTAINS(errorMessage(r), "neither cuobjdump nor nvdisasm found on the worker host (PATH=/nonexistent");
            n.request(Json{{"op", "shutdown"}}, 30);
        }
    }
}

// The real tools on a real kernel, where the toolkit has them (the GPU host does; a compiler-only CI image may not).
void testRealTools(const fs::path &root)
{
    const Disassembler real;
    if (!real.cuobjdump() || !real.nvdisasm()) {
        std::printf("cuobjdump/nvdisasm not installed: the real-tool part is not run\n");
        return;
    }
    const std::string nvcc = findNvcc();
    const fs::path src = fixtures() / "tasks" / "scale" / "reference.cu";
    const fs::path so = root / "scale.so";
    const std::vector<NvccResult> built = compileKernels({{src, so, {}}}, "sm_90", 1);
    if (!built[0].ok) {
        std::printf("nvcc cannot build for sm_90 here: the real-tool part is not run\n%s\n", built[0].log.c_str());
        return;
    }
    const Json j = real.disassemble(so, root);
    KF_CHECK_CONTAINS(j.value("tool", ""), "nvdisasm ");
    KF_CHECK(j.value("arch", "") == "sm_90" && !j["cubins"].empty());
    const std::string sass = j["cubins"].empty() ? "" : j["cubins"][0].value("sass", "");
    KF_CHECK_CONTAINS(sass, "axpy");
    KF_CHECK_CONTAINS(sass, "//## File");
    KF_CHECK_CONTAINS(sass, "reference.cu");
}

} // namespace

int main()
{
    ScratchDir dir;
    testSearch(dir.path());
    testNames();
    testInlineTable();
    testRunTool(dir.path());
    try {
        testDisassemble(dir.path());
        testProtocol(dir.path());
        testRealTools(dir.path());
    } catch (const DisassemblyError &e) {
        KF_CHECK_MSG(false, "unexpected DisassemblyError " + e.code + ": " + e.message);
    }
    return finish("tst_disassembler");
}
