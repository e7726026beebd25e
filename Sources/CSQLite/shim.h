#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// `sqlite3_config` is variadic, which Swift cannot call. Turns SQLite's memory statistics
/// off for the whole process; valid only before SQLite initializes (the first open does).
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
