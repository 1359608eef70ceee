#include "cmalloctrim.h"

#include <malloc.h>

int itemaudit_malloc_trim(void) {
    return malloc_trim(0);
}
