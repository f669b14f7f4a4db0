#include "h.h"
__device__ float gx[2];
template <typename T> __device__ __noinline__ T tf(T a) { return a * T(3); }
#ifdef GXONLY
SSP S ws[2] = {{gx, 1}, {gx + 1, 2}};
#elif defined(MIX)
SSP S ws[3] = {{gx, 1}, {wa + 1, 2}, {gx + 1, 3}};
#else
SSP S ws[2] = {{wa, 1}, {wa + 1, 2}};
#endif
#ifdef FN
SSP void* fp = (void*)&tf<float>;
#endif
__global__ void kb(float* p) { p[0] = ws[1].p[0] + ws[0].n
#ifdef FN
+ (fp != 0)
#endif
; }
