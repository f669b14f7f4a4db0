__global__ void wholeProgramKernel(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }
