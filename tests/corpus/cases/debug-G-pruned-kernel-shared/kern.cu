// two kernels with static shared arrays, compiled with -G
__global__ void launched(int *p)
{
    __shared__ int buf[64];
    buf[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = buf[63 - threadIdx.x];
}

__global__ void __launch_bounds__(128, 4) not_launched(int *p)
{
    __shared__ int s[128];
    __shared__ float t[32];
    s[threadIdx.x] = p[threadIdx.x];
    t[threadIdx.x & 31] = 1.0f;
    __syncthreads();
    p[threadIdx.x] = s[127 - threadIdx.x] + (int)t[threadIdx.x & 31];
}
