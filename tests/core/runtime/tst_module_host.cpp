// The Python module host (torchworker/kforge-module-host) started by the judge's HostClient in the candidate
// host's sandbox, without a GPU: python3 runs isolated (-I: PYTHONPATH and the user's site-packages are not read),
// the host applies the native host's Landlock and seccomp rules to itself (libkforge_hostguard.so) before it
// imports the module, and a hostile module's attempts at import time are refused: writing outside its private
// directory (planting a .pth file for later hosts), the network, signalling the judge, leaving its process group;
// a process it forks is gone with the host. A module that fails is named with its step. Prints what the kernel
// here allowed; the checks follow what the host reports it applied.
#include "core/runtime/host/hostclient.h"
#include "core/runtime/host/proctree.h"
#include "core/runtime/host/sandbox.h"
#include "tests/core/runtime/check.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

fs::path g_scratch;

void writeFile(const fs::path &p, const std::string &text)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

host::HostStart startOf(const std::string &fileName, const std::string &source, Json init = Json::object())
{
    host::HostStart how;
    how.kind = host::HostKind::Module;
    how.module.python = KFORGE_TORCH_PYTHON;
    how.module.script = KFORGE_MODULE_HOST;
    how.module.guardLibrary = KFORGE_HOSTGUARD;
    how.module.fileName = fileName;
    how.module.init = std::move(init);
    how.slot = "candidate";
    how.tempParent = g_scratch;
    how.library = source;
    return how;
}

int listen127(int &port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(s, 4) != 0
        || ::getsockname(s, reinterpret_cast<sockaddr *>(&a), &len) != 0)
        return -1;
    port = ntohs(a.sin_port);
    return s;
}

bool goneOrZombie(pid_t pid)
{
    for (int i = 0; i < 100; ++i) {
        host::ProcInfo info;
        if (!host::readProcStat(pid, info) || info.state == 'Z')
            return true;
        ::usleep(20000);
    }
    return false;
}

// What the hostile module tries while it is imported, reported on its stdout as one JSON line.
std::string hostileModule(const fs::path &outside, const fs::path &site, int port, pid_t sibling)
{
    return R"PY(import json, os, signal, socket, sys, time
report = {}
def attempt(name, fn):
    try:
        fn()
        report[name] = 'allowed'
    except Exception as e:
        report[name] = '%s: %s' % (type(e).__name__, e)
def write(path):
    with open(path, 'w') as f:
        f.write('import os; os.system("echo planted")\n')
attempt('write_outside', lambda: write(')PY" + outside.string() + R"PY('))
attempt('plant_pth', lambda: write(os.path.join(')PY" + site.string() + R"PY(', 'kforge_evil.pth')))
attempt('write_own_dir', lambda: write('inside.txt'))
attempt('connect', lambda: socket.create_connection(('127.0.0.1', )PY" + std::to_string(port) + R"PY(), timeout=2).close())
attempt('kill_judge', lambda: os.kill(os.getppid(), signal.SIGUSR1))
attempt('kill_sibling', lambda: os.kill()PY" + std::to_string(sibling) + R"PY(, signal.SIGUSR1))
attempt('setsid', os.setsid)
child = os.fork()
if child == 0:
    try:
        os.setsid()
    except OSError:
        pass
    time.sleep(120)
    os._exit(0)
report['child'] = child
report['isolated'] = sys.flags.isolated
report['no_user_site'] = sys.flags.no_user_site
report['sys_path'] = sys.path
print('KFORGE-REPORT ' + json.dumps(report), flush=True)

import torch

class ModelNew(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(n))

    def forward(self, x):
        return x * self.scale
)PY";
}

Json reportOf(host::HostClient &client)
{
    bool truncated = false;
    const std::string out = client.stdoutText(truncated);
    const std::size_t at = out.find("KFORGE-REPORT ");
    if (at == std::string::npos)
        return Json::object();
    const std::size_t end = out.find('\n', at);
    return Json::parse(out.substr(at + 14, end == std::string::npos ? std::string::npos : end - at - 14));
}

void testHostileModule()
{
    int port = 0;
    const int server = listen127(port);
    KF_CHECK(server >= 0);
    const pid_t sibling = ::fork(); // stands for another host of the judge's
    if (sibling == 0) {
        ::signal(SIGUSR1, SIG_IGN);
        ::pause();
        ::_exit(0);
    }
    const fs::path outside = g_scratch / "escaped.txt", site = g_scratch / "site-packages";
    fs::create_directories(site);
    // A PYTHONPATH the host must not read: its sitecustomize would leave a mark at start.
    const fs::path pythonPath = g_scratch / "pythonpath";
    fs::create_directories(pythonPath);
    writeFile(pythonPath / "sitecustomize.py", "open('" + (g_scratch / "sitecustomize-ran").string() + "', 'w')\n");
    ::setenv("PYTHONPATH", pythonPath.c_str(), 1);

    std::string code, message;
    auto client = host::HostClient::start(startOf("hostile.py", hostileModule(outside, site, port, sibling),
                                                  Json{{"init_args", Json::array({4})}}),
                                          code, message);
    ::unsetenv("PYTHONPATH");
    KF_CHECK_MSG(client != nullptr, code + ": " + message);
    if (!client)
        return;
    const Json protections = client->protections();
    const Json report = reportOf(*client);
    std::printf("module host protections: %s\nhostile module saw: %s\n", protections.dump().c_str(),
                report.dump().c_str());
    std::printf("module host start (ms): %s, device: %s\n", client->startMs().dump().c_str(),
                client->initReply().value("device", false) ? "yes" : "no");
    KF_CHECK(protections.value("own_process_group", false));
    KF_CHECK(protections.value("no_inherited_fds", false));
    KF_CHECK(protections.value("private_tmp", false));
    KF_CHECK_MSG(report.is_object() && report.contains("child"), "the module's report is missing");

    const Json reply = client->initReply();
    KF_CHECK(reply.value("abi", 0) == 1);
    KF_CHECK(reply.value("init_args", Json()) == Json::array({4}));
    KF_CHECK(reply.contains("state") && reply["state"].size() == 1 && reply["state"][0]["name"] == "scale");

    KF_CHECK(report.value("isolated", 0) == 1);
    KF_CHECK(report.value("no_user_site", 0) == 1);
    KF_CHECK(!fs::exists(g_scratch / "sitecustomize-ran"));
    KF_CHECK_MSG(report.value("sys_path", Json::array()).dump().find(pythonPath.string()) == std::string::npos,
                 report.value("sys_path", Json::array()).dump());
    KF_CHECK(report.value("write_own_dir", "") == "allowed");
    if (protections.value("landlock", false)) {
        KF_CHECK_CONTAINS(report.value("write_outside", ""), "PermissionError");
        KF_CHECK_CONTAINS(report.value("plant_pth", ""), "PermissionError");
        KF_CHECK(!fs::exists(outside));
        KF_CHECK(!fs::exists(site / "kforge_evil.pth"));
    } else {
        std::printf("NOTE: no Landlock here; writes outside the host's directory are not refused\n");
    }
    if (protections.value("seccomp", false)) {
        KF_CHECK_CONTAINS(report.value("kill_judge", ""), "PermissionError");
        KF_CHECK_CONTAINS(report.value("setsid", ""), "PermissionError");
    }
    if (protections.value("network", false) || protections.value("seccomp", false))
        KF_CHECK(report.value("connect", "") != "allowed");
    std::printf("signalling a sibling host: %s\n", report.value("kill_sibling", "").c_str());

    const pid_t child = report.value("child", -1);
    // Between requests the host's whole group is stopped (issue 35, item 1): the host and the process it forked.
    const auto stateOf = [](pid_t pid) { // a stop takes effect shortly after kill() returns
        host::ProcInfo info;
        for (int i = 0; i < 100; ++i) {
            if (!host::readProcStat(pid, info))
                return '?';
            if (info.state == 'T')
                break;
            ::usleep(10000);
        }
        return info.state;
    };
    KF_CHECK(client->frozen());
    KF_CHECK_MSG(stateOf(client->pid()) == 'T', std::string("host state ") + stateOf(client->pid()));
    KF_CHECK_MSG(child > 0 && stateOf(child) == 'T', std::string("forked child state ") + stateOf(child));
    KF_CHECK(protections.value("stopped_between_requests", false));
    const Json finished = client->request(Json{{"op", "finish"}}, 30, "finish between stops");
    KF_CHECK_MSG(finished.value("ok", false), finished.dump());
    KF_CHECK_MSG(stateOf(client->pid()) == 'T', std::string("host state after a request ") + stateOf(client->pid()));
    client.reset(); // exit, then the sandbox kills what is left of the tree
    KF_CHECK_MSG(child > 0 && goneOrZombie(child), "the module's forked process outlived its host");
    ::kill(sibling, SIGKILL);
    ::waitpid(sibling, nullptr, 0);
    ::close(server);
}

void testFailuresNamed()
{
    struct Case {
        std::string file, source, step, words;
    };
    const std::vector<Case> cases = {
        {"ctor.py", "import torch\nclass ModelNew(torch.nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
                    "        raise RuntimeError('no weights for you')\n",
         "construct", "ctor.py: the candidate failed at step construct: RuntimeError: no weights for you (at ctor.py line 5)"},
        {"broken.py", "import torch\nimport no_such_module_here\n", "import",
         "broken.py: the candidate failed at step import: ModuleNotFoundError: No module named 'no_such_module_here'"},
        {"other.py", "import torch\nclass Model(torch.nn.Module):\n    pass\n", "class",
         "no torch.nn.Module class ModelNew in other.py (it defines: Model)"},
    };
    for (const Case &c : cases) {
        std::string code, message;
        auto client = host::HostClient::start(startOf(c.file, c.source, Json{{"init_args", Json::array({4})}}), code,
                                              message);
        KF_CHECK(client == nullptr);
        KF_CHECK_MSG(code == "load_failed", code);
        KF_CHECK_CONTAINS(message, c.words);
    }
    // A module that ends its process while it is imported: crashed, with its status.
    std::string code, message;
    auto client = host::HostClient::start(startOf("leaves.py", "import os\nos._exit(7)\n"), code, message);
    KF_CHECK(client == nullptr);
    KF_CHECK_MSG(code == "crashed", code);
    KF_CHECK_CONTAINS(message, "exited with status 7");
}

// The judge's cache of a module's own builds (HostStart::module.extensions): a load_inline build is made once; a
// second host of the same module imports the copy the judge lent it instead of compiling; a symbolic link the
// host left in its build folder (to a file it may not read) never reaches the cache.
void testExtensionCache()
{
    const std::string canBuild = std::string("'") + KFORGE_TORCH_PYTHON
                                 + "' -c 'import os, sys, torch.utils.cpp_extension as e; e.verify_ninja_availability(); "
                                   "sys.exit(0 if any(os.path.isfile(os.path.join(p, \"torch\", \"extension.h\")) "
                                   "for p in e.include_paths() + [\"/usr/include\"]) else 1)' >/dev/null 2>&1";
    if (std::system(canBuild.c_str()) != 0) {
        std::printf("extension cache: skipped (no ninja or torch/extension.h for load_inline)\n");
        return;
    }
    const std::string source = "import os, torch\n"
                               "from torch.utils.cpp_extension import load_inline\n"
                               "_ext = load_inline(name='kforge_cache_probe', functions=['twice'],\n"
                               "    cpp_sources=['torch::Tensor twice(torch::Tensor x) { return x * 2; }'])\n"
                               "os.symlink('/etc/hostname', os.path.join(os.path.dirname(_ext.__file__), 'leak'))\n"
                               "class ModelNew(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return _ext.twice(x)\n";
    const fs::path cache = g_scratch / "extensions-cache";
    fs::create_directories(cache);
    Json builds[2];
    for (Json &b : builds) {
        host::HostStart how = startOf("inline.py", source);
        how.module.extensions = cache;
        how.initTimeoutS = 170;
        std::string code, message;
        auto client = host::HostClient::start(how, code, message);
        KF_CHECK_MSG(client != nullptr, code + ": " + message);
        if (!client)
            return;
        b = client->initReply().value("builds", Json::array());
    }
    KF_CHECK_MSG(builds[0].size() == 1 && !builds[0][0].value("hit", true), builds[0].dump());
    KF_CHECK_MSG(builds[1].size() == 1 && builds[1][0].value("hit", false), builds[1].dump());
    std::size_t kept = 0;
    for (const auto &e : fs::recursive_directory_iterator(cache)) {
        kept += e.path().filename() == "kforge-built" ? 1 : 0;
        KF_CHECK_MSG(e.path().filename() != "leak", "a host's symbolic link reached the judge's cache: " + e.path().string());
    }
    KF_CHECK_MSG(kept == 1, std::to_string(kept) + " builds kept");
    std::printf("extension cache: built in %.1f s, imported from the judge's copy in %.2f s\n",
                builds[0][0].value("seconds", 0.0), builds[1][0].value("seconds", 0.0));
}

} // namespace

int main()
{
    if (std::system((std::string("'") + KFORGE_TORCH_PYTHON + "' -c 'import torch' 2>/dev/null").c_str()) != 0)
        test::skip(std::string("no torch in ") + KFORGE_TORCH_PYTHON);
    host::becomeSubreaper();
    ::signal(SIGUSR1, SIG_IGN); // a signal that got through must not end the test
    char pattern[] = "/tmp/tst_module_host-XXXXXX";
    if (!::mkdtemp(pattern))
        test::skip("no temp dir");
    g_scratch = pattern;
    testHostileModule();
    testFailuresNamed();
    testExtensionCache();
    std::error_code ec;
    fs::remove_all(g_scratch, ec);
    return test::finish("tst_module_host");
}
