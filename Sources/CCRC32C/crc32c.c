// CRC32C (Castagnoli, polynomial 0x82F63B78): SSE4.2 crc32 instruction when the CPU has it,
// slicing-by-8 tables otherwise.
#include "ccrc32c.h"
#include <string.h>

static uint32_t table[8][256];
static int table_ready = 0;

static void build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[0][n] = crc;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = table[0][crc & 0xFF] ^ (crc >> 8);
            table[k][n] = crc;
        }
    }
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t software(uint32_t crc, const unsigned char *p, size_t count) {
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) build_table();
    crc = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        word ^= crc;
        crc = table[7][word & 0xFF] ^ table[6][(word >> 8) & 0xFF] ^ table[5][(word >> 16) & 0xFF] ^
              table[4][(word >> 24) & 0xFF] ^ table[3][(word >> 32) & 0xFF] ^ table[2][(word >> 40) & 0xFF] ^
              table[1][(word >> 48) & 0xFF] ^ table[0][word >> 56];
        p += 8;
        count -= 8;
    }
    while (count--) crc = table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
#include <cpuid.h>
__attribute__((target("sse4.2")))
static uint32_t hardware(uint32_t crc, const unsigned char *p, size_t count) {
    uint64_t c = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        count -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (count--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}

static int has_sse42(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}
#endif

int itemaudit_crc32c_hardware(void) {
#if defined(__x86_64__)
    static int cached = -1;
    if (cached < 0) cached = has_sse42();
    return cached;
#else
    return 0;
#endif
}

uint32_t itemaudit_crc32c(uint32_t crc, const void *data, size_t count) {
#if defined(__x86_64__)
    if (itemaudit_crc32c_hardware()) return hardware(crc, (const unsigned char *)data, count);
#endif
    return software(crc, (const unsigned char *)data, count);
}
