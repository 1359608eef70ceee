#ifndef ITEMAUDIT_CLIBXML2_H
#define ITEMAUDIT_CLIBXML2_H
// Deliberately includes nothing. This module only carries pkg-config's flags for libxml2 (its
// header path and -lxml2) to the C target CLibXML2Shim. Swift must never see libxml2's headers:
// on Debian they include the system ICU headers (unicode/ucnv.h), whose UErrorCode clashes with
// Foundation's own ICU module (_FoundationICU) in a fresh build. Swift imports CLibXML2Shim.
#endif
