#include <libelf.h>
#include <gelf.h>
#include <elf.h>
