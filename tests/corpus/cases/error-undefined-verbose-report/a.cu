// A kernel whose helper calls a function no input defines, with shared
// memory, a stack frame and global data for the -v report.
__device__ float missing_filter(float x);
__device__ __noinline__ float smooth(float x) { return missing_filter(x) * 0.5f; }
__device__ float weights[100];
__global__ void blur(float *p)
{
    __shared__ float tile[64];
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = smooth(tile[63 - threadIdx.x]) + weights[threadIdx.x % 100];
}
