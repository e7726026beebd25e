#ifndef CTCMALLOC_SHIM_H
#define CTCMALLOC_SHIM_H
/// gperftools' tcmalloc replaces the C library's malloc for the whole process once linked
/// into the executable: nothing calls it by name except `tc_version`, which keeps the linker
/// from dropping the library as unused.
#include <gperftools/tcmalloc.h>
#endif
