// weak-data-uninitialized-three-files: copies that lose and tvar<float>, new here
#include "h.h"
__device__ int use_c() { return tvar<int> * ivar + (int)tvar<float>; }
