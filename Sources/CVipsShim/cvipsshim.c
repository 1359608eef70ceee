#include "cvipsshim.h"

#include <string.h>
#include <vips/vips.h>

int itemaudit_vips_start(void) {
    if (VIPS_INIT("itemaudit")) return -1;
    // Only the loaders libvips has fuzzed for untrusted input (the bytes are sniffed as JPEG, PNG
    // or HEIC before libvips sees them, too).
    vips_block_untrusted_set(TRUE);
    // Each answer resizes different bytes: caching operations would only hold memory. The server
    // bounds how many resizes run at once, so each runs on one thread.
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

/// Copies libvips' first error line into `error` and clears libvips' buffer. The buffer is
/// shared by every thread, so under concurrent failures a message may be a neighbour's; the
/// failure itself is always this call's.
static void take_error(char *error, size_t capacity) {
    if (error == NULL || capacity == 0) return;
    const char *text = vips_error_buffer();
    size_t length = 0;
    if (text != NULL) {
        while (text[length] != '\0' && text[length] != '\n' && length + 1 < capacity) length++;
        memcpy(error, text, length);
    }
    error[length] = '\0';
    vips_error_clear();
}

int itemaudit_vips_header_size(
    const void *bytes, size_t length, int *width, int *height, char *error, size_t errorCapacity) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (image == NULL) {
        take_error(error, errorCapacity);
        return -1;
    }
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

int itemaudit_vips_thumbnail(
    const void *bytes, size_t length, int edge, const char *suffix, void **output, size_t *outputLength,
    char *error, size_t errorCapacity) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer(
            (void *)bytes, length, &thumbnail, edge, "height", edge, "size", VIPS_SIZE_DOWN, NULL)) {
        take_error(error, errorCapacity);
        return -1;
    }
    int failed = vips_image_write_to_buffer(thumbnail, suffix, output, outputLength, "strip", TRUE, NULL);
    g_object_unref(thumbnail);
    if (failed) {
        take_error(error, errorCapacity);
        return -1;
    }
    return 0;
}

void itemaudit_vips_free(void *pointer) { g_free(pointer); }
