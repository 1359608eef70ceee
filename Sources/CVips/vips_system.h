#ifndef ITEMAUDIT_CVIPS_SYSTEM_H
#define ITEMAUDIT_CVIPS_SYSTEM_H
// The system libvips (Debian: libvips-dev), for the CVipsShim C target only: this module exists
// so SwiftPM reads vips' compiler and linker flags from pkg-config. No Swift file imports it, so
// Swift never parses glib's or vips' headers (a system header Swift imports can clash with the
// toolchain's own modules, as libxml2's ICU headers did with _FoundationICU).
#include <vips/vips.h>

#endif
