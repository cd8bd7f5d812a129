#ifndef POSTMORTEM_CDEMANGLE_H
#define POSTMORTEM_CDEMANGLE_H
#include <stddef.h>
#include <stdint.h>

/// Demangles an Itanium C++ ABI name with libstdc++'s `__cxa_demangle`.
/// Returns a `malloc`ed string the caller frees, or NULL when `name` is not a mangled C++ name.
char *postmortem_demangle_cxx(const char *name);

/// Demangles a Swift symbol with the Swift runtime's `swift_demangle`.
/// Returns a `malloc`ed string the caller frees, or NULL when `name` is not a mangled Swift name.
char *postmortem_demangle_swift(const char *name, size_t length);

#endif
