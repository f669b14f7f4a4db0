__device__ int g_depth_hits[8];
__global__ void child_fill(int *data, int n, int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = depth + blockIdx.x;
    if (threadIdx.x == 0) atomicAdd(&g_depth_hits[depth & 7], 1);
}
__global__ void child_noparam() { g_depth_hits[0] += 1; }
