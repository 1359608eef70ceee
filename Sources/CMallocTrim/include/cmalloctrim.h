#ifndef CMALLOCTRIM_H
#define CMALLOCTRIM_H

/// Gives the free pages of every glibc malloc arena back to the system (malloc_trim(0)); returns
/// 1 when memory was released. <malloc.h> is not part of Swift's Glibc module.
int itemaudit_malloc_trim(void);

#endif
