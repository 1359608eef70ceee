#include "cvipsshim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

// libvips is opened with dlopen on the first resize rather than linked: linking it makes the
// dynamic linker load it and its ~100 dependencies (ImageMagick, poppler, HDF5, …) at the start
// of every `itemaudit` command, though only the server's photo route uses it. The few functions
// used are declared here by their C signatures (libvips 8.13 or later, soname libvips.so.42), so
// no vips or glib header is needed to build.

typedef struct VipsImage VipsImage;
// VipsSize's VIPS_SIZE_DOWN (resample.h): only ever shrink.
enum { vips_size_down = 2 };

static struct {
    int (*version)(int flag);
    int (*init)(const char *argv0);
    void (*block_untrusted_set)(int state);
    void (*cache_set_max)(int max);
    void (*concurrency_set)(int concurrency);
    VipsImage *(*image_new_from_buffer)(const void *buffer, size_t length, const char *options, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*thumbnail_buffer)(void *buffer, size_t length, VipsImage **out, int width, ...);
    int (*image_write_to_buffer)(VipsImage *in, const char *suffix, void **buffer, size_t *length, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *object);
    void (*free)(void *pointer);
    unsigned (*log_set_handler)(
        const char *domain, int levels, void (*handler)(const char *, int, const char *, void *), void *data);
} vips;

// glib's G_LOG_LEVEL_WARNING, G_LOG_FLAG_FATAL and G_LOG_FLAG_RECURSION.
enum { log_warnings = (1 << 4) | (1 << 1) | (1 << 0) };

/// Drops libvips' warnings: a damaged photo's decoder complaints would go to the server's
/// standard error unescaped; the failure itself reaches the caller as an error.
static void ignore_log(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static pthread_once_t started_once = PTHREAD_ONCE_INIT;
static int started = -1;

#define FIND(field, name) \
    if ((*(void **)&vips.field = dlsym(library, name)) == NULL) return -1

static int open_library(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    FIND(version, "vips_version");
    FIND(init, "vips_init");
    FIND(block_untrusted_set, "vips_block_untrusted_set");
    FIND(cache_set_max, "vips_cache_set_max");
    FIND(concurrency_set, "vips_concurrency_set");
    FIND(image_new_from_buffer, "vips_image_new_from_buffer");
    FIND(image_get_width, "vips_image_get_width");
    FIND(image_get_height, "vips_image_get_height");
    FIND(thumbnail_buffer, "vips_thumbnail_buffer");
    FIND(image_write_to_buffer, "vips_image_write_to_buffer");
    FIND(error_buffer, "vips_error_buffer");
    FIND(error_clear, "vips_error_clear");
    // glib's, found through libvips' own dependencies.
    FIND(object_unref, "g_object_unref");
    FIND(free, "g_free");
    FIND(log_set_handler, "g_log_set_handler");
    // The ABI these declarations are for (VIPS_INIT's check: current minus age).
    if (vips.version(3) - vips.version(5) != 42) return -1;
    if (vips.init("itemaudit") != 0) return -1;
    vips.log_set_handler("VIPS", log_warnings, ignore_log, NULL);
    // Only the loaders libvips has fuzzed for untrusted input (the bytes are sniffed as JPEG, PNG
    // or HEIC before libvips sees them, too).
    vips.block_untrusted_set(1);
    // Each answer resizes different bytes: caching operations would only hold memory. The server
    // bounds how many resizes run at once, so each runs on one thread.
    vips.cache_set_max(0);
    vips.concurrency_set(1);
    return 0;
}

static void start(void) { started = open_library(); }

int itemaudit_vips_start(void) {
    pthread_once(&started_once, start);
    return started;
}

/// Copies libvips' first error line into `error` and clears libvips' buffer. The buffer is
/// shared by every thread, so under concurrent failures a message may be a neighbour's; the
/// failure itself is always this call's.
static void take_error(char *error, size_t capacity) {
    if (error == NULL || capacity == 0) return;
    const char *text = vips.error_buffer();
    size_t length = 0;
    if (text != NULL) {
        while (text[length] != '\0' && text[length] != '\n' && length + 1 < capacity) length++;
        memcpy(error, text, length);
    }
    error[length] = '\0';
    vips.error_clear();
}

int itemaudit_vips_header_size(
    const void *bytes, size_t length, int *width, int *height, char *error, size_t errorCapacity) {
    if (itemaudit_vips_start() != 0) return -1;
    VipsImage *image = vips.image_new_from_buffer(bytes, length, "", NULL);
    if (image == NULL) {
        take_error(error, errorCapacity);
        return -1;
    }
    *width = vips.image_get_width(image);
    *height = vips.image_get_height(image);
    vips.object_unref(image);
    return 0;
}

int itemaudit_vips_thumbnail(
    const void *bytes, size_t length, int edge, const char *suffix, void **output, size_t *outputLength,
    char *error, size_t errorCapacity) {
    if (itemaudit_vips_start() != 0) return -1;
    VipsImage *thumbnail = NULL;
    if (vips.thumbnail_buffer((void *)bytes, length, &thumbnail, edge, "height", edge, "size", vips_size_down, NULL)) {
        take_error(error, errorCapacity);
        return -1;
    }
    int failed = vips.image_write_to_buffer(thumbnail, suffix, output, outputLength, "strip", 1, NULL);
    vips.object_unref(thumbnail);
    if (failed) {
        take_error(error, errorCapacity);
        return -1;
    }
    return 0;
}

void itemaudit_vips_free(void *pointer) {
    if (pointer != NULL && vips.free != NULL) vips.free(pointer);
}
