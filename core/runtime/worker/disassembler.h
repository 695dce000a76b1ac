#pragma once
// SASS of a loaded kernel library, made on the worker's host by the CUDA toolkit's own tools: the cubins
// are extracted from the .so (`cuobjdump -xelf all`) and disassembled with line info
// (`nvdisasm --print-line-info-inline -c`: each line with the lines it was inlined at); without nvdisasm, `cuobjdump -sass` of the whole .so. The client parses
// the raw text (protocol op "disassemble", docs/worker-protocol.md).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

// Where the toolkit's binary tools are looked for, in order: each PATH entry, $CUDA_HOME/bin,
// $CUDA_PATH/bin, /usr/local/cuda/bin. Values are the environment as read (empty when unset).
struct ToolSearch {
    std::string path;     // $PATH
    std::string cudaHome; // $CUDA_HOME
    std::string cudaPath; // $CUDA_PATH
    std::vector<std::filesystem::path> extraDirs{"/usr/local/cuda/bin"};

    static ToolSearch fromEnvironment();
    std::vector<std::filesystem::path> directories() const;
    // The first executable regular file named `name` in directories(); nullopt when there is none.
    std::optional<std::filesystem::path> find(const std::string &name) const;
    // Where nothing was found, for messages: "PATH (9 folders, none of them CUDA's), CUDA_HOME=(unset),
    // /usr/local/cuda/bin": a long PATH by its size and its entries that name CUDA, never in full.
    std::string describe() const;
};

// A finished tool run: its exit status, stdout and stderr (each cut at the cap), whether it was cut or
// killed on the time limit.
struct ToolRun {
    bool started = false;
    int exitStatus = -1; // -1: killed by a signal or not started
    int termSignal = 0;  // the signal that ended it, when one did
    std::string out;
    std::string err;
    bool outTruncated = false;
    bool timedOut = false;
    std::string startError;
    bool ok() const { return started && exitStatus == 0 && !timedOut; }
};

// Runs argv[0] (an absolute path) in `cwd` with stdin from /dev/null and no other inherited descriptor;
// keeps at most `capBytes` of stdout (reading on, so the tool is not blocked) and kills it after
// `timeoutS` seconds.
ToolRun runTool(const std::vector<std::string> &argv, const std::filesystem::path &cwd, std::size_t capBytes,
                double timeoutS);

struct Cubin {
    std::string name; // file name as cuobjdump wrote it ("candidate-3.1.sm_90.cubin")
    std::string arch; // "sm_90", from the name; empty when the name has none
    std::string bytes;
};

// Where an instruction came from, per `nvdisasm --print-line-info-inline`: the chain of source locations
// from the innermost (e.g. a CUDA header function inlined into the kernel) to the outermost (the line in
// the kernel's own file that called it). One entry when nothing was inlined.
struct SourceLocation {
    std::string file;
    uint32_t line = 0;
};
using InlineChain = std::vector<SourceLocation>;
// (mangled function name, byte offset in the function) -> chain.
using InlineTable = std::map<std::pair<std::string, uint64_t>, InlineChain>;
InlineTable parseInlineLineInfo(const std::string &sass);

struct DisassemblyLimits {
    std::size_t sassCapBytes = 8u << 20;   // per cubin (and for cuobjdump -sass), the rest is dropped
    std::size_t totalCapBytes = 32u << 20; // all cubins of one reply together
    double toolTimeoutS = 60;
};

class Disassembler
{
public:
    explicit Disassembler(ToolSearch search = ToolSearch::fromEnvironment(), DisassemblyLimits limits = {});

    const std::optional<std::filesystem::path> &cuobjdump() const { return m_cuobjdump; }
    const std::optional<std::filesystem::path> &nvdisasm() const { return m_nvdisasm; }

    // The cubins embedded in `library`, extracted into a fresh folder under `workDir` (removed again).
    // Empty with `error` set when cuobjdump is missing or fails; empty without error when there are none.
    std::vector<Cubin> extractCubins(const std::filesystem::path &library, const std::filesystem::path &workDir,
                                     std::string &error) const;

    // The body of the protocol's disassemble reply: {"tool", "arch", "cubins": [{"name", "arch", "sass",
    // "truncated"}], "cuobjdump_sass"?}. Throws DisassemblyError.
    nlohmann::ordered_json disassemble(const std::filesystem::path &library, const std::filesystem::path &workDir) const;

    // The inline chains of every instruction of `cubin` (nvdisasm --print-line-info-inline -c); empty
    // without nvdisasm or when it fails.
    InlineTable inlineTable(const Cubin &cubin, const std::filesystem::path &workDir) const;

    // "nvdisasm 13.0.88": the tool's name and the version from its --version text.
    static std::string toolVersion(const std::string &tool, const std::string &versionText);
    // "sm_90" from "kernel.1.sm_90.cubin"; empty when there is none.
    static std::string archFromName(const std::string &cubinName);

private:
    ToolSearch m_search;
    DisassemblyLimits m_limits;
    std::optional<std::filesystem::path> m_cuobjdump;
    std::optional<std::filesystem::path> m_nvdisasm;
};

struct DisassemblyError {
    std::string code; // no_disassembler | disassemble_failed
    std::string message;
};

} // namespace kforge::runtime
