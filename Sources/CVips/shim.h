#ifndef ITEMAUDIT_CVIPS_SHIM_H
#define ITEMAUDIT_CVIPS_SHIM_H
// Includes the system libvips headers (Debian: libvips-dev) and wraps the few calls Swift cannot
// make itself: VIPS_INIT is a macro and vips' operations take variadic options.
#include <vips/vips.h>

/// Starts libvips once for the process, with only the loaders fuzzed for untrusted input. 0 on success.
static inline int itemaudit_vips_start(void) {
    if (VIPS_INIT("itemaudit")) return -1;
    vips_block_untrusted_set(TRUE);
    // Each answer resizes different bytes: caching operations would only hold memory. The server
    // bounds how many resizes run at once, so each runs on one thread.
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

/// The image's size from its header alone (nothing decoded). 0 on success.
static inline int itemaudit_vips_header_size(const void *bytes, size_t length, int *width, int *height) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

/// The image shrunk (never enlarged) to fit `edge` x `edge`, turned upright, without metadata,
/// saved by `suffix` (".jpg[Q=80]", ".png"); free `*output` with itemaudit_vips_free. 0 on success.
static inline int itemaudit_vips_thumbnail(
    const void *bytes, size_t length, int edge, const char *suffix, void **output, size_t *outputLength) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, edge, "height", edge, "size", VIPS_SIZE_DOWN, NULL))
        return -1;
    int failed = vips_image_write_to_buffer(thumbnail, suffix, output, outputLength, "strip", TRUE, NULL);
    g_object_unref(thumbnail);
    return failed ? -1 : 0;
}

/// libvips' last error text for this thread's failure, then cleared; copy it before the next call.
static inline const char *itemaudit_vips_error(void) { return vips_error_buffer(); }
static inline void itemaudit_vips_error_clear(void) { vips_error_clear(); }

static inline void itemaudit_vips_free(void *pointer) { g_free(pointer); }

#endif
