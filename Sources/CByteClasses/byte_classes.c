// Everything is static inline in include/byte_classes.h; SwiftPM wants one source file.
#include "byte_classes.h"
