#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

/* memfd_create(2), declared here because glibc declares it only under _GNU_SOURCE. The DWARF module
   hands libdwarf one slice of a universal Mach-O file through such an in-memory file. */
int memfd_create(const char *name, unsigned int flags);
