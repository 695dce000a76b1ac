// Class 1 (address space): looks for the judge in its own process. For every shared object loaded there
// (dl_iterate_phdr, then /proc/self/maps) it asks the dynamic linker (RTLD_NOLOAD) for a kf_entry other than
// its own, i.e. the reference library the worker has loaded; it calls that one and does no work of its own.
// When no other kf_entry is reachable (the reference runs in another process) it writes zeros.
// KForge must not say `correct`: the reference is never in the candidate's process.
#include "advcommon.cuh"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

typedef int (*EntryFn)(const kf_tensor *, int32_t, kf_tensor *, int32_t, const kf_params *, cudaStream_t);

struct Search {
    EntryFn self;
    EntryFn found;
};

static EntryFn entry_of(const char *file, EntryFn self)
{
    void *h = file && *file ? dlopen(file, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!h)
        return nullptr;
    EntryFn e = reinterpret_cast<EntryFn>(dlsym(h, "kf_entry"));
    dlclose(h);
    return e && e != self ? e : nullptr;
}

// Every object the dynamic linker has loaded, by the name it was loaded under (also a deleted file).
static int visit(struct dl_phdr_info *info, size_t, void *data)
{
    Search *s = static_cast<Search *>(data);
    if (!s->found)
        s->found = entry_of(info->dlpi_name, s->self);
    return s->found ? 1 : 0;
}

static EntryFn find_other_entry(EntryFn self)
{
    Search search{self, nullptr};
    dl_iterate_phdr(visit, &search);
    if (search.found)
        return search.found;
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
        if (char *deleted = strstr(file, " (deleted)"))
            *deleted = 0;
        found = entry_of(file, self);
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
