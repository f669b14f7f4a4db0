// weak-data-uninitialized-library-sm75: a member with only a losing copy
#include "h.h"
__device__ int lib_sum() { int s = 0; for (int i = 0; i < 8; ++i) s += scratch<int>[i]; return s; }
