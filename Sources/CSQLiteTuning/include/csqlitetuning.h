#ifndef CSQLITETUNING_H
#define CSQLITETUNING_H

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation and
/// free. Only takes effect before SQLite initializes (before the first connection opens);
/// returns SQLite's result code (SQLITE_MISUSE when it is too late, which changes nothing).
/// sqlite3_config is variadic, so Swift cannot call it directly.
int itemaudit_sqlite_disable_memory_statistics(void);

#endif
