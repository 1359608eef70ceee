#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to start loading the cache line at `address` for a read soon, without
/// waiting for it: lookups in large tables issue these for a whole batch of keys first, so that
/// their cache misses overlap instead of following one another. Swift has no such intrinsic.
static inline void itemaudit_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
