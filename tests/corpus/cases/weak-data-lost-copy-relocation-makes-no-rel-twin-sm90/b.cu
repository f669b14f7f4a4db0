#include "h.h"
#ifdef OWN
__device__ float* own = gb + OWN;
#endif
#ifdef OWN2
__device__ float* own2 = gb + OWN2;
#endif
__global__ void kb(float* p) { p[0] = *wp1 + *wp2
#ifdef OWN
 + *own
#endif
#ifdef OWN2
 + *own2
#endif
; }
