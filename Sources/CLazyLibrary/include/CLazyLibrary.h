#ifndef LUMEN_CLAZYLIBRARY_H
#define LUMEN_CLAZYLIBRARY_H
// A shared library opened on first use instead of linked. Linking a library costs every
// process its loading (the library, its dependencies, their relocations) whether or not it
// decodes a file of that format: libtiff and libwebp with theirs are eight libraries and
// about 1 ms of every `lumen` process. The C targets that wrap such a library define each
// function Lumen calls under the library's own name (CLAZY_FORWARD below), so Swift and C
// callers are unchanged and the compiler checks every definition against the library's
// header; the first call looks the function up. Callers check CLazy_open before their first
// call, so a machine without the library gets an error naming it instead of a crash.
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

typedef struct {
    const char *soname;        // the file to open, with its ABI version: "libtiff.so.6"
    pthread_mutex_t lock;
    _Atomic(void *) handle;
} CLazy_Library;

#define CLAZY_LIBRARY(soname) { (soname), PTHREAD_MUTEX_INITIALIZER, NULL }

/// Opens `library` unless it is open; 1 when it is loaded, else 0 with the reason in `why`
/// ("libtiff.so.6 cannot be loaded (…: cannot open shared object file…)").
int CLazy_open(CLazy_Library *library, char *why, size_t length);
/// The address of `name` in `library`. Aborts, naming both, when either is missing: callers
/// check CLazy_open first, and a symbol missing from a library of the right version is a
/// broken installation.
void *CLazy_symbol(CLazy_Library *library, const char *name);

/// Before a wrapping target's library headers: its forwarders are hidden, so the program
/// does not export them and the library's calls to its own functions stay inside it.
#define CLAZY_HIDE_FORWARDERS _Pragma("GCC visibility push(hidden)")

/// Inside a forwarder: `f`, the library's `name`, looked up on the first call.
#define CLAZY_FUNCTION(library, name)                                                             \
    static _Atomic(__typeof__(&name)) function;                                                   \
    __typeof__(&name) f = atomic_load_explicit(&function, memory_order_acquire);                 \
    if (!f) {                                                                                     \
        f = (__typeof__(&name))CLazy_symbol(&(library), #name);                                   \
        atomic_store_explicit(&function, f, memory_order_release);                                \
    }

/// Defines `name` with the library's prototype, forwarding to the library's function.
#define CLAZY_FORWARD(library, result, name, parameters, arguments) \
    result name parameters { CLAZY_FUNCTION(library, name) return f arguments; }

/// CLAZY_FORWARD for a function returning nothing.
#define CLAZY_FORWARD_VOID(library, name, parameters, arguments) \
    void name parameters { CLAZY_FUNCTION(library, name) f arguments; }

#endif
