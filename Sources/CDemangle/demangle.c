#include "CDemangle.h"
#include <stdlib.h>

char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);
char *swift_demangle(const char *mangled, size_t length, char *buffer, size_t *bufferSize, uint32_t flags);
/* The runtime's entry points for its backtracer (exported by libswiftCore, static and shared). Some runtimes take a
   fifth `int *status`, others four arguments: passing a valid fifth pointer is right for both. */
char *_swift_backtrace_demangle(const char *mangled, size_t length, char *buffer, size_t *bufferSize, int *status);
bool _swift_backtrace_isThunkFunction(const char *mangled);

char *postmortem_demangle_cxx(const char *name) {
    int status = 0;
    char *result = __cxa_demangle(name, NULL, NULL, &status);
    if (status != 0) {
        free(result);
        return NULL;
    }
    return result;
}

char *postmortem_demangle_swift(const char *name, size_t length) {
    return swift_demangle(name, length, NULL, NULL, 0);
}

char *postmortem_demangle_swift_simplified(const char *name, size_t length) {
    int status = 0;
    return _swift_backtrace_demangle(name, length, NULL, NULL, &status);
}

bool postmortem_swift_is_thunk(const char *name) {
    return _swift_backtrace_isThunkFunction(name);
}
