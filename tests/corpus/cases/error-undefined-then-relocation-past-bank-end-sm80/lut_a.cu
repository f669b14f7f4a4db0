extern __device__ float missing_f;
__device__ float missing_fn(float);
__constant__ float lut_a[4] = {1.f, 2.f, 3.f, 4.f};
__global__ void read_a(float* p) { p[threadIdx.x] = lut_a[threadIdx.x & 3] + missing_f + missing_fn(p[1]); }
