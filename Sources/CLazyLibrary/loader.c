#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int CLazy_open(CLazy_Library *library) {
    if (atomic_load_explicit(&library->handle, memory_order_acquire)) return 1;
    pthread_mutex_lock(&library->lock);
    if (!atomic_load_explicit(&library->handle, memory_order_relaxed) && !library->failed) {
        // RTLD_LOCAL: the library's symbols stay out of the process's global scope, where the
        // forwarders of the same names already are.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            atomic_store_explicit(&library->handle, handle, memory_order_release);
        } else {
            const char *why = dlerror();
            snprintf(library->error, sizeof library->error, "%s cannot be loaded (%s)", library->soname,
                     why ? why : "unknown reason");
            library->failed = 1;
        }
    }
    pthread_mutex_unlock(&library->lock);
    return atomic_load_explicit(&library->handle, memory_order_acquire) != NULL;
}

const char *CLazy_error(CLazy_Library *library) { return library->error; }

void *CLazy_symbol(CLazy_Library *library, const char *name) {
    if (!CLazy_open(library)) {
        fprintf(stderr, "lumen: %s, needed for %s\n", library->error, name);
        abort();
    }
    void *symbol = dlsym(atomic_load_explicit(&library->handle, memory_order_acquire), name);
    if (!symbol) {
        fprintf(stderr, "lumen: %s has no %s (a different version of the library?)\n", library->soname, name);
        abort();
    }
    return symbol;
}
