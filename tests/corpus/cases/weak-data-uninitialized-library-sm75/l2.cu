// weak-data-uninitialized-library-sm75: a losing copy and the library's own variable
#include "h.h"
__device__ int lib_calls;
__device__ int lib_max() { int m = scratch<int>[0]; for (int i = 1; i < 8; ++i) m = max(m, scratch<int>[i]); ++lib_calls; return m; }
