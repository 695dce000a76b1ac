// Class 1 (address space): looks for the judge in its own process. It reads /proc/self/maps, and for every
// shared object mapped there asks the dynamic linker (RTLD_NOLOAD) for a kf_entry other than its own, i.e. the
// reference library the worker has loaded; it calls that one and does no work of its own. When no other
// kf_entry is reachable (the reference runs in another process) it writes zeros.
// KForge must not say `correct`: the reference is never in the candidate's process.
#include "advcommon.cuh"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*EntryFn)(const kf_tensor *, int32_t, kf_tensor *, int32_t, const kf_params *, cudaStream_t);

static EntryFn find_other_entry(EntryFn self)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return nullptr;
    char line[4096];
    EntryFn found = nullptr;
    while (!found && fgets(line, sizeof line, maps)) {
        const char *path = strchr(line, '/');
        if (!path || !strstr(path, ".so"))
            continue;
        char file[4096];
        snprintf(file, sizeof file, "%s", path);
        file[strcspn(file, "\n")] = 0;
        void *h = dlopen(file, RTLD_NOW | RTLD_NOLOAD);
        if (!h)
            continue;
        EntryFn e = reinterpret_cast<EntryFn>(dlsym(h, "kf_entry"));
        if (e && e != self)
            found = e;
        dlclose(h);
    }
    fclose(maps);
    if (!found) { // also the global scope, where a worker built with -rdynamic would export its own symbols
        EntryFn e = reinterpret_cast<EntryFn>(dlsym(RTLD_DEFAULT, "kf_entry"));
        if (e && e != self)
            found = e;
    }
    return found;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    static EntryFn other = find_other_entry(&kf_entry);
    if (other)
        return other(in, nin, out, nout, params, stream);
    return adv_zeros(out, nout, stream);
}
