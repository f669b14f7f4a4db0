// file 1: a device function with its own __shared__ array, called only by this file's kernel
__device__ __noinline__ float blend_1(float a, int k)
{
    __shared__ float sh_1[8];
    sh_1[threadIdx.x % 8] = a;
    __syncthreads();
    return sh_1[(k + 1) % 8];
}

__global__ void ktable_1(float *out) { out[threadIdx.x] = blend_1((float)threadIdx.x, threadIdx.x); }
