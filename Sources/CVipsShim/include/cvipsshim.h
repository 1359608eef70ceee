#ifndef ITEMAUDIT_CVIPSSHIM_H
#define ITEMAUDIT_CVIPSSHIM_H
// The few libvips calls the photo route makes, with plain C types only: Swift imports this header
// and never vips' or glib's (VIPS_INIT is a macro and vips' operations take variadic options,
// which Swift cannot call anyway). libvips itself is opened on first use (cvipsshim.c says why).
#include <stddef.h>

/// Opens and starts libvips once for the process, with only the loaders fuzzed for untrusted
/// input. 0 on success; -1 when libvips (8.13 or later, libvips.so.42) is missing or did not start.
/// The other calls start it themselves.
int itemaudit_vips_start(void);

/// The image's size from its header alone (nothing decoded). 0 on success; on failure, libvips'
/// first error line is copied into `error` (`errorCapacity` bytes, always terminated).
int itemaudit_vips_header_size(
    const void *bytes, size_t length, int *width, int *height, char *error, size_t errorCapacity);

/// The image shrunk (never enlarged) to fit `edge` x `edge`, turned upright, without metadata,
/// saved by `suffix` (".jpg[Q=80]", ".png"); free `*output` with itemaudit_vips_free. 0 on
/// success; on failure the error as for itemaudit_vips_header_size.
int itemaudit_vips_thumbnail(
    const void *bytes, size_t length, int edge, const char *suffix, void **output, size_t *outputLength,
    char *error, size_t errorCapacity);

/// Frees what itemaudit_vips_thumbnail wrote.
void itemaudit_vips_free(void *pointer);

#endif
