extern __constant__ float scale_c[3];
extern __device__ unsigned long long bump(unsigned long long by);
__constant__ int offsets[2] = {10, 20};

__global__ void k_atom2(int *out)
{
    atomicAdd(out, offsets[threadIdx.x & 1]);
    atomicMax(out + 1, (int)(scale_c[0] * threadIdx.x));
    out[2 + threadIdx.x] = (int)bump(2);
}
