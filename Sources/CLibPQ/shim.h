#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// Debian installs libpq's headers under postgresql/ (pkg-config's include path names that
// directory, so both spellings resolve).
#include <libpq-fe.h>
#endif
