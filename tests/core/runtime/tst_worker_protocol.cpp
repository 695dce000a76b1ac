// The worker protocol, against the real kforge-worker binary, without needing a GPU: handshake, malformed
// and unknown requests, load errors (ABI version, missing entry, not a shared object), and "no_device"
// answers where there is no GPU (where there is one, the same requests must succeed instead).
#include "workertest.h"

#include "core/runtime/worker/kernellibrary.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace kforge::runtime;
using namespace kforge::runtime::test;

namespace {

void handshake(WorkerClient &w)
{
    const Json &ready = w.readyEvent();
    KF_CHECK(ready.value("event", "") == "ready");
    KF_CHECK(ready.value("protocol", 0) == 1);
    KF_CHECK(ready.value("abi_version", 0) == KF_ABI_VERSION);
    KF_CHECK(ready.value("pid", 0) == w.pid());
    KF_CHECK(!ready.value("worker_version", "").empty());

    const auto hello = w.request(Json{{"op", "hello"}, {"protocol", 1}}, 10);
    KF_CHECK_MSG(hello.ok() && hello.message.value("ok", false), hello.message.dump());
    KF_CHECK(hello.message.value("protocol", 0) == 1 && hello.message.value("abi_version", 0) == KF_ABI_VERSION);

    const auto wrong = w.request(Json{{"op", "hello"}, {"protocol", 2}}, 10);
    KF_CHECK_MSG(errorCode(wrong) == "protocol_mismatch", wrong.message.dump());
    const auto missing = w.request(Json{{"op", "hello"}}, 10);
    KF_CHECK(errorCode(missing) == "bad_request");

    // The request's token comes back in its reply (the client drops lines without it), errors included; a
    // request without one, or a line that is not JSON, gets no stale token of an earlier request.
    const auto tokened = w.request(Json{{"op", "hello"}, {"protocol", 1}, {"token", "5f3a9c"}}, 10);
    KF_CHECK_MSG(tokened.ok() && tokened.message.value("token", "") == "5f3a9c", tokened.message.dump());
    const auto tokenedError = w.request(Json{{"op", "hello"}, {"protocol", 2}, {"token", "77aa"}}, 10);
    KF_CHECK_MSG(tokenedError.message.value("token", "") == "77aa", tokenedError.message.dump());
    const auto untokened = w.request(Json{{"op", "hello"}, {"protocol", 1}}, 10);
    KF_CHECK_MSG(!untokened.message.contains("token"), untokened.message.dump());
    w.request(Json{{"op", "hello"}, {"protocol", 1}, {"token", "aa"}}, 10);
    const auto garbage = w.requestRaw("not json", 10);
    KF_CHECK_MSG(!garbage.message.contains("token"), garbage.message.dump());
}

void malformed(WorkerClient &w)
{
    const auto garbage = w.requestRaw("this is not json", 10);
    KF_CHECK_MSG(errorCode(garbage) == "bad_request", garbage.message.dump());
    KF_CHECK(garbage.ok() && garbage.message["id"].is_null());
    KF_CHECK_CONTAINS(errorMessage(garbage), "malformed JSON");

    const auto truncated = w.requestRaw(R"({"id": 5, "op": "hel)", 10);
    KF_CHECK(errorCode(truncated) == "bad_request");

    const auto array = w.requestRaw("[1, 2, 3]", 10);
    KF_CHECK(errorCode(array) == "bad_request");

    const auto noOp = w.requestRaw(R"({"id": 77})", 10);
    KF_CHECK(errorCode(noOp) == "bad_request" && noOp.message.value("id", 0) == 77);
    KF_CHECK_CONTAINS(errorMessage(noOp), "missing \"op\"");

    const auto unknown = w.request(Json{{"id", "abc"}, {"op", "transmogrify"}}, 10);
    KF_CHECK(errorCode(unknown) == "bad_request" && unknown.message.value("id", "") == "abc");
    KF_CHECK_CONTAINS(errorMessage(unknown), "unknown op 'transmogrify'");

    const auto badSlot = w.request(Json{{"op", "load"}, {"slot", "third"}, {"path", "/x"}}, 10);
    KF_CHECK(errorCode(badSlot) == "bad_request");
    const auto noSource = w.request(Json{{"op", "load"}, {"slot", "candidate"}}, 10);
    KF_CHECK(errorCode(noSource) == "bad_request");
    const auto badBase64 = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"so_base64", "@@@"}}, 10);
    KF_CHECK(errorCode(badBase64) == "bad_request");
    const auto noFile = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", "/nonexistent/k.so"}}, 10);
    KF_CHECK(errorCode(noFile) == "load_failed");
    const auto notSo =
        w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"so_base64", encodeBase64("not an ELF file")}}, 10);
    KF_CHECK_MSG(errorCode(notSo) == "load_failed", notSo.message.dump());

    // A broken task names the field.
    Json task = toJson(fixtureTask("scale"));
    task["inputs"][1]["shape"][0] = "N*Q";
    const auto badTask = w.request(Json{{"op", "evaluate"}, {"task", task}}, 10);
    KF_CHECK(errorCode(badTask) == "bad_request");
    KF_CHECK_CONTAINS(errorMessage(badTask), "inputs[1].shape[0]: unknown identifier 'Q'");
    const auto badOptions =
        w.request(Json{{"op", "evaluate"}, {"task", toJson(fixtureTask("scale"))}, {"options", {{"trials", 0}}}}, 10);
    KF_CHECK(errorCode(badOptions) == "bad_request");
    KF_CHECK_CONTAINS(errorMessage(badOptions), "options.trials");

    // Still serving after all that.
    const auto hello = w.request(Json{{"op", "hello"}, {"protocol", 1}}, 10);
    KF_CHECK(hello.ok() && hello.message.value("ok", false));
}

// Load checks need compiled kernels but no GPU.
void loadErrors(WorkerClient &w, const ScratchDir &dir)
{
    const auto so = compileFixtures({{"wrong_abi", "kernels/wrong_abi.cu"},
                                     {"no_entry", "kernels/no_entry.cu"},
                                     {"good", "kernels/scale_good.cu"},
                                     {"reference", "tasks/scale/reference.cu"}},
                                    dir.path(), "sm_80");
    const auto abi = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", so.at("wrong_abi")}}, 30);
    KF_CHECK_MSG(errorCode(abi) == "abi_mismatch", abi.message.dump());
    KF_CHECK_CONTAINS(errorMessage(abi), "kernel ABI v99");
    const auto entry = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", so.at("no_entry")}}, 30);
    KF_CHECK_MSG(errorCode(entry) == "missing_entry", entry.message.dump());
    KF_CHECK_CONTAINS(errorMessage(entry), "kf_entry");

    std::ifstream in(so.at("good"), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const auto b64 = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"so_base64", encodeBase64(bytes.str())}}, 30);
    KF_CHECK_MSG(b64.ok() && b64.message.value("ok", false) && b64.message.value("abi_version", 0) == KF_ABI_VERSION,
                 b64.message.dump());
    const auto ref = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", so.at("reference")}}, 30);
    KF_CHECK_MSG(ref.ok() && ref.message.value("ok", false), ref.message.dump());
    // Each load took the worker's spare host (booted ahead: its reply says how long the load waited for it).
    for (const auto *r : {&b64, &ref}) {
        const Json ms = r->message.value("start_ms", Json::object());
        KF_CHECK_MSG(ms.contains("spawn") && ms.contains("boot_wait") && ms.contains("library"), ms.dump());
    }
    KF_CHECK(!ref.message.value("kept", false));
    // Switching references keeps the previous one's process: loading it again takes it back (same bytes only).
    const auto other = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", so.at("good")}}, 30);
    KF_CHECK_MSG(other.ok() && other.message.value("ok", false) && !other.message.value("kept", false),
                 other.message.dump());
    const auto back = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", so.at("reference")}}, 30);
    KF_CHECK_MSG(back.ok() && back.message.value("ok", false) && back.message.value("kept", false)
                     && back.message.value("abi_version", 0) == KF_ABI_VERSION,
                 back.message.dump());
    // A failed reference load empties the slot but keeps the process before it, which comes back as well.
    const auto broken =
        w.request(Json{{"op", "load"}, {"slot", "reference"}, {"so_base64", encodeBase64("not an ELF file")}}, 30);
    KF_CHECK_MSG(errorCode(broken) == "load_failed", broken.message.dump());
    const auto again = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"so_base64", encodeBase64(bytes.str())}}, 30);
    KF_CHECK_MSG(again.ok() && again.message.value("kept", false), again.message.dump());
}

// A torch task's modules (issue 34): a .py path or a source with its file name loads as a module (its host
// starts at the evaluation, which names the task); one that is a shared object, or a source without a .py name,
// is refused; a module for a CUDA task, or a kernel as a torch task's reference, is refused before any GPU work;
// a module has nothing to disassemble; and without a GPU a torch task's evaluation answers no_device.
void modules(WorkerClient &w, const ScratchDir &dir, bool haveGpu)
{
    const fs::path ref = dir.path() / "reference.py";
    std::ofstream(ref) << "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n";
    const auto loaded = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", ref.string()}}, 30);
    KF_CHECK_MSG(loaded.ok() && loaded.message.value("ok", false) && loaded.message.value("module", false),
                 loaded.message.dump());
    const std::string cand = "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x + x\n";
    const auto inlined = w.request(
        Json{{"op", "load"}, {"slot", "candidate"}, {"source_base64", encodeBase64(cand)}, {"filename", "mine.py"}}, 30);
    KF_CHECK_MSG(inlined.ok() && inlined.message.value("module", false), inlined.message.dump());
    const auto noName = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"source_base64", encodeBase64(cand)}}, 30);
    KF_CHECK_MSG(errorCode(noName) == "bad_request", noName.message.dump());
    KF_CHECK_CONTAINS(errorMessage(noName), "filename");
    const auto again = w.request(
        Json{{"op", "load"}, {"slot", "candidate"}, {"source_base64", encodeBase64(cand)}, {"filename", "mine.py"}}, 30);
    KF_CHECK(again.ok() && again.message.value("module", false));

    const auto cudaTask = w.request(Json{{"op", "evaluate"}, {"task", toJson(fixtureTask("scale"))}}, 60);
    KF_CHECK_MSG(errorCode(cudaTask) == "bad_request", cudaTask.message.dump());
    KF_CHECK_CONTAINS(errorMessage(cudaTask), "Python module (reference.py)");
    const auto dis = w.request(Json{{"op", "disassemble"}, {"slot", "candidate"}}, 30);
    KF_CHECK_MSG(errorCode(dis) == "bad_request", dis.message.dump());
    KF_CHECK_CONTAINS(errorMessage(dis), "mine.py");

    Json torch = Json::parse(R"({"kind": "torch", "name": "double", "title": "t", "description": "d",
        "reference": "reference.py", "params": {"N": 16},
        "inputs": [{"name": "x", "dtype": "f32", "shape": ["N"], "init": {"dist": "normal", "mean": 0, "std": 1}}],
        "outputs": [{"name": "out", "dtype": "f32", "shape": ["N"]}]})");
    if (!haveGpu) {
        const auto eval = w.request(Json{{"op", "evaluate"}, {"task", torch}}, 60);
        KF_CHECK_MSG(errorCode(eval) == "no_device", eval.message.dump());
    }
    // A torch task's reference is its module, never a kernel library.
    const auto so = compileFixtures({{"good", "kernels/scale_good.cu"}}, dir.path(), "sm_80");
    const auto kernelRef = w.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", so.at("good")}}, 30);
    KF_CHECK_MSG(kernelRef.ok() && kernelRef.message.value("ok", false), kernelRef.message.dump());
    const auto wrongRef = w.request(Json{{"op", "evaluate"}, {"task", torch}}, 60);
    KF_CHECK_MSG(errorCode(wrongRef) == "bad_request", wrongRef.message.dump());
    KF_CHECK_CONTAINS(errorMessage(wrongRef), "its module");
    // A shared object named .py is not taken for a module.
    const fs::path disguised = dir.path() / "disguised.py";
    fs::copy_file(so.at("good"), disguised);
    const auto elf = w.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", disguised.string()}}, 30);
    KF_CHECK_MSG(errorCode(elf) == "load_failed", elf.message.dump());
}

} // namespace

int main()
{
    const std::string worker = workerPath();
    {
        // --version answers without touching a GPU.
        ScratchDir dir;
        const std::string out = (dir.path() / "version.txt").string();
        const int rc = std::system((worker + " --version > " + out).c_str());
        std::ifstream in(out);
        std::string line;
        std::getline(in, line);
        KF_CHECK(rc == 0);
        KF_CHECK_CONTAINS(line, "kforge-worker ");
        KF_CHECK_CONTAINS(line, "protocol 1");
    }

    WorkerClient w({worker});
    std::string error;
    if (!w.start(error, 30)) {
        std::fprintf(stderr, "cannot start %s: %s\n", worker.c_str(), error.c_str());
        return 1;
    }
    handshake(w);
    malformed(w);

    // GPU requests: no_device without a GPU; with one, the same requests work.
    const auto info = w.request(Json{{"op", "device_info"}}, 120);
    const bool haveGpu = info.ok() && info.message.value("ok", false);
    if (!haveGpu) {
        KF_CHECK_MSG(errorCode(info) == "no_device", info.message.dump());
        KF_CHECK_CONTAINS(errorMessage(info), "no CUDA device");
        std::printf("no GPU here: %s\n", errorMessage(info).c_str());
    } else {
        const Json &d = info.message["device"];
        KF_CHECK(d.value("cc_major", 0) > 0 && d.value("sm_count", 0) > 0 && d.value("arch", "").starts_with("sm_"));
        KF_CHECK(d.value("peak_copy_gbps", 0.0) > 0 && d.value("peak_fma_gflops", 0.0) > 0);
        std::printf("GPU: %s\n", d.dump().c_str());
    }

    const auto noLoad = w.request(Json{{"op", "evaluate"}, {"task", toJson(fixtureTask("scale"))}}, 60);
    KF_CHECK_MSG(errorCode(noLoad) == (haveGpu ? "bad_request" : "no_device"), noLoad.message.dump());

    ScratchDir dir;
    loadErrors(w, dir);
    modules(w, dir, haveGpu);
    if (!haveGpu) {
        const auto eval = w.request(Json{{"op", "evaluate"}, {"task", toJson(fixtureTask("scale"))}}, 60);
        KF_CHECK_MSG(errorCode(eval) == "no_device", eval.message.dump());
        const auto selfTest = w.request(Json{{"op", "self_test"}}, 60);
        KF_CHECK_MSG(errorCode(selfTest) == "no_device", selfTest.message.dump());
        // The command-line self-test says so too, with exit status 2.
        const int rc = std::system((worker + " --self-test 2>/dev/null").c_str());
        KF_CHECK_MSG(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "exit status " + std::to_string(rc));
    }

    const auto bye = w.request(Json{{"op", "shutdown"}}, 10);
    KF_CHECK(bye.ok() && bye.message.value("ok", false));
    KF_CHECK(w.waitExit(10));
    KF_CHECK_MSG(w.exitCode() == 0, w.exitDescription());
    return finish("tst_worker_protocol");
}
