#pragma once
// Process-tree helpers of the sandbox (internal to kforge_host): finding every process that belongs to a
// sandboxed tree through /proc, killing and reaping them.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kforge::runtime::host {

// What marks a process as part of one sandboxed tree: a descendant of root (through ppid chains; the host is a
// subreaper of its own tree, so double-forked orphans stay under it while it lives), a member of the process
// group, or a process in one of the tree's own namespaces (which nothing in the tree can leave: the seccomp
// filter denies setns/unshare and namespace flags of clone).
struct TreeMarker {
    pid_t root = 0; // 0: the root is gone (reaped)
    pid_t processGroup = 0;
    std::vector<std::pair<std::string, unsigned long long>> namespaces; // ("user"|"net", inode)
};

struct ProcInfo {
    pid_t pid = 0, ppid = 0, pgrp = 0, session = 0;
    char state = '?';
    unsigned long long startTime = 0;
};

// /proc/<pid>/stat of one process, false when it is gone.
bool readProcStat(pid_t pid, ProcInfo &info);
// Every process visible in /proc.
std::vector<ProcInfo> listProcesses();
// The marked processes other than the root, from one scan.
std::vector<ProcInfo> markedProcesses(const TreeMarker &marker);

// SIGSTOP the root, SIGKILL every other marked process until none is left alive (rounds, so what forks
// meanwhile is found too, at most ~3 s), then SIGKILL the root. The root is not reaped here. Killed processes
// are remembered so that reapStrays() reaps those reparented to this process.
// True when nothing marked was left alive.
bool killMarkedTree(const TreeMarker &marker);

// waitpid for the killed processes that are now this process's children (zombies reparented to the subreaper).
void reapStrays();

// remove_all, making directories writable first where the child took the permission away.
void removeTree(const std::filesystem::path &dir);

} // namespace kforge::runtime::host
