"""The build cache of inline CUDA/C++ (torch.utils.cpp_extension.load_inline) for candidate modules.

torch rebuilds a load_inline extension in every new process (it rewrites the source file, so ninja sees it
changed): each evaluation of a ModelNew with inline CUDA would pay its whole nvcc build again. The host installs
a cached load_inline before it imports a module: an extension is built once, into a directory named by the hash
of everything load_inline was given (sources, functions, flags, ...), and later loads of the same extension
import the built library without compiling.

The cache is written by the candidate's own process, so it is not shared between candidates: the judge gives
each candidate file (by the SHA-256 of its bytes) a directory of its own. Only the same file can find what an
earlier evaluation of it built, and a candidate cannot plant a library for another one to load."""

import hashlib
import inspect
import json
import os
import shutil
import time

MARKER = 'kforge-built'
KEEP_FILES = 64  # candidate files whose builds are kept (the most recently used)


def root():
    base = os.environ.get('KFORGE_TORCH_CACHE')
    if not base:
        cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
        base = os.path.join(cache, 'kforge', 'torch-extensions')
    return base


def directory_for(path, torch_version, device_kind):
    """The cache directory of one candidate file (created; its mtime marks it used), or '' when the file cannot
    be read or the cache cannot be made."""
    try:
        with open(path, 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:32]
        top = os.path.join(root(), '%s-%s' % (torch_version.replace(os.sep, '_'), device_kind))
        d = os.path.join(top, digest)
        os.makedirs(d, exist_ok=True)
        os.utime(d)
        prune(top)
        return d
    except OSError:
        return ''


def prune(top):
    try:
        entries = sorted((os.path.getmtime(os.path.join(top, e)), e) for e in os.listdir(top))
    except OSError:
        return
    for _, e in entries[:-KEEP_FILES]:
        shutil.rmtree(os.path.join(top, e), ignore_errors=True)


def install(cache_dir, report):
    """Replaces torch.utils.cpp_extension.load_inline in this process by a cached one under cache_dir; each call
    appends {"name", "key", "hit", "seconds"} to report."""
    import torch.utils.cpp_extension as ext
    original = ext.load_inline
    signature = inspect.signature(original)

    def load_inline(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return original(*args, **kwargs)  # torch's own message for a wrong call
        bound.apply_defaults()
        given = dict(bound.arguments)
        if given.get('build_directory') or not given.get('is_python_module', True):
            return original(*args, **kwargs)
        key_fields = {k: v for k, v in given.items() if k not in ('verbose', 'build_directory')}
        key = hashlib.sha256(json.dumps(key_fields, sort_keys=True, default=repr).encode()).hexdigest()[:24]
        name = str(given['name'])
        where = os.path.join(cache_dir, key)
        started = time.monotonic()
        entry = {'name': name, 'key': key, 'hit': False, 'seconds': 0.0}
        if os.path.isfile(os.path.join(where, MARKER)):
            try:
                module = ext._import_module_from_library(name, where, True)
                entry.update(hit=True, seconds=round(time.monotonic() - started, 3))
                report.append(entry)
                return module
            except (ImportError, OSError):
                pass  # a broken entry: built again below
        os.makedirs(where, exist_ok=True)
        given['build_directory'] = where
        try:
            module = original(**given)
        finally:
            entry['seconds'] = round(time.monotonic() - started, 3)
            report.append(entry)
        with open(os.path.join(where, MARKER), 'w') as f:
            f.write(name)
        return module

    ext.load_inline = load_inline


def build_error(text):
    """The compiler's error lines from torch's "Error building extension" message (nvcc's and gcc's forms),
    at most 8 of them, or '' when the text is no build error."""
    if 'Error building extension' not in text:
        return ''
    lines = [l.strip() for l in text.splitlines()]
    errors = [l for l in lines if ' error' in l or l.startswith('error') or 'error:' in l]
    errors = [l for l in errors if not l.startswith(('FAILED:', 'ninja:'))] or errors
    head = lines[0].split(':')[0] if lines else 'Error building extension'
    return '%s: %s' % (head, ' | '.join(errors[:8]) if errors else ' '.join(lines[-6:]))
