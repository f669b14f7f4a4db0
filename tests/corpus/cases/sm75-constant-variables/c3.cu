extern __constant__ double dtable[3];      // defined in c2.cu
__constant__ short shorts[3] = {1, 2, 3};
__constant__ long long big = 0x123456789abcdefLL;

extern __device__ double lookup(int i);

__global__ void k3(double *out)
{
    out[threadIdx.x] = lookup(threadIdx.x) + dtable[0] + shorts[threadIdx.x % 3] + (double)big;
}
