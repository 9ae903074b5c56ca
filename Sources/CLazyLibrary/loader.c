#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int CLazy_open(CLazy_Library *library, char *why, size_t length) {
    if (atomic_load_explicit(&library->handle, memory_order_acquire)) return 1;
    pthread_mutex_lock(&library->lock);
    // A failure is not remembered: a missing library fails again at once, and one that
    // failed for a passing reason (out of file descriptors, of memory) loads next time.
    if (!atomic_load_explicit(&library->handle, memory_order_relaxed)) {
        // RTLD_LOCAL: the library's symbols stay out of the process's global scope. The
        // forwarders of the same names are hidden, so the library's calls to its own
        // functions (and libwebpmux's to libwebp's) bind within the libraries.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            atomic_store_explicit(&library->handle, handle, memory_order_release);
        } else if (why && length > 0) {
            const char *reason = dlerror();
            snprintf(why, length, "%s cannot be loaded (%s)", library->soname, reason ? reason : "unknown reason");
        }
    }
    pthread_mutex_unlock(&library->lock);
    return atomic_load_explicit(&library->handle, memory_order_acquire) != NULL;
}

void *CLazy_symbol(CLazy_Library *library, const char *name) {
    char why[384];
    if (!CLazy_open(library, why, sizeof why)) {
        fprintf(stderr, "lumen: %s, needed for %s\n", why, name);
        abort();
    }
    void *symbol = dlsym(atomic_load_explicit(&library->handle, memory_order_acquire), name);
    if (!symbol) {
        fprintf(stderr, "lumen: %s has no %s (a different version of the library?)\n", library->soname, name);
        abort();
    }
    return symbol;
}
