// Everything is in include/vector_math.h (static inline); SwiftPM wants one source file.
#include "vector_math.h"
