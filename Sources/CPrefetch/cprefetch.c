// The shim is one inline function in its header; SwiftPM needs a source file for the target.
#include "cprefetch.h"
