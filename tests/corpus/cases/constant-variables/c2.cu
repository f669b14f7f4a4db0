extern __constant__ float coeffs[5];       // defined in c1.cu
extern __constant__ int table_len;
__constant__ double dtable[3] = {1.0, 2.0, 3.0};
__constant__ int uninit_ints[6];

__device__ __noinline__ double lookup(int i)
{
    return dtable[i % 3] * coeffs[i % 5] + uninit_ints[i % 6] + table_len;
}

__global__ void k2(double *out) { out[threadIdx.x] = lookup(threadIdx.x); }
