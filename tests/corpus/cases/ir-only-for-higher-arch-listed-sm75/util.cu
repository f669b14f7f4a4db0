__constant__ float coeffs[4] = {1.f, 2.f, 3.f, 4.f};
__device__ float poly(float x) { return coeffs[0] + x * (coeffs[1] + x * (coeffs[2] + x * coeffs[3])); }
__global__ void poly_all(float *v) { v[threadIdx.x] = poly(v[threadIdx.x]); }
