// A kernel with a 20000-byte parameter (EIATTR_KPARAM_INFO_V2) and the
// device function the cluster kernel calls.
struct Coeffs { float c[5000]; };
__device__ int reduce_big(int which) { return which * 3 + 1; }
__global__ void evaluate(const __grid_constant__ Coeffs k, float *out)
{
    out[threadIdx.x] = k.c[threadIdx.x] * k.c[4999 - threadIdx.x] + (float)reduce_big(threadIdx.x);
}
