#ifndef ITEMAUDIT_CLIBXML2_SHIM_H
#define ITEMAUDIT_CLIBXML2_SHIM_H
// Only includes the system libxml2 headers (Debian: libxml2-dev); nothing is copied here.
// The streaming reader (xmlTextReader) is all ItemAudit uses: no tree, no DTD, no entities.
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#endif
