#include <cassert>

extern __device__ int checked_div(int a, int b);

__global__ void k_assert(const int *in, int *out)
{
    assert(in != nullptr);
    out[threadIdx.x] = checked_div(in[threadIdx.x], in[0]);
}
