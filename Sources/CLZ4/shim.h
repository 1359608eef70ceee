#ifndef ITEMAUDIT_CLZ4_SHIM_H
#define ITEMAUDIT_CLZ4_SHIM_H
// Only includes the system liblz4 headers (Debian: liblz4-dev); nothing is copied here.
#include <lz4.h>
#include <lz4frame.h>
#endif
