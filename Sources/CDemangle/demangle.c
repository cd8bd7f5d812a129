#include "CDemangle.h"
#include <stdlib.h>

char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);
char *swift_demangle(const char *mangled, size_t length, char *buffer, size_t *bufferSize, uint32_t flags);

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
