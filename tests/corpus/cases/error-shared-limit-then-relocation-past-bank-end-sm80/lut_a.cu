__device__ float big1(int i);
__device__ float big2(int i);
__device__ float big3(int i);
__device__ float big4(int i);
__constant__ float lut_a[4] = {1.f, 2.f, 3.f, 4.f};
__global__ void read_a(float* p)
{
    __shared__ float s[10000];
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = lut_a[threadIdx.x & 3] + s[threadIdx.x ^ 1] + big1(threadIdx.x) + big2(threadIdx.x) + big3(threadIdx.x) + big4(threadIdx.x);
}
