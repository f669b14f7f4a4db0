// weak-data-uninitialized-three-files: only copies that lose
#include "h.h"
__device__ int use_b() { return tvar<int> + ivar; }
