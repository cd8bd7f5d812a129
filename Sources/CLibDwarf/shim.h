#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
