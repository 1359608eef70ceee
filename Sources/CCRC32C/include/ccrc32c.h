#ifndef ITEMAUDIT_CCRC32C_H
#define ITEMAUDIT_CCRC32C_H
#include <stddef.h>
#include <stdint.h>

/// Extends a CRC32C (Castagnoli) over `count` bytes. Start with crc = 0; the result of one call
/// is the `crc` of the next when the data comes in pieces. Uses SSE4.2 when the CPU has it.
uint32_t itemaudit_crc32c(uint32_t crc, const void *data, size_t count);

/// 1 when the hardware (SSE4.2) path is in use, 0 for the table-driven fallback.
int itemaudit_crc32c_hardware(void);
#endif
