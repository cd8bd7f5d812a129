#ifndef POSTMORTEM_CDEMANGLE_H
#define POSTMORTEM_CDEMANGLE_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/// Demangles an Itanium C++ ABI name with libstdc++'s `__cxa_demangle`.
/// Returns a `malloc`ed string the caller frees, or NULL when `name` is not a mangled C++ name.
char *postmortem_demangle_cxx(const char *name);

/// Demangles a Swift symbol with the Swift runtime's `swift_demangle`.
/// Returns a `malloc`ed string the caller frees, or NULL when `name` is not a mangled Swift name.
char *postmortem_demangle_swift(const char *name, size_t length);

/// Demangles a Swift symbol as the Swift runtime's backtracer shows it (`closure #1 in restock(_:names:)`: no modules,
/// argument labels only, no types). Returns a `malloc`ed string the caller frees, or NULL.
char *postmortem_demangle_swift_simplified(const char *name, size_t length);

/// Whether a mangled Swift name is a thunk (a reabstraction, partial-apply or protocol-witness thunk), as the
/// runtime's backtracer tells them.
bool postmortem_swift_is_thunk(const char *name);

#endif
