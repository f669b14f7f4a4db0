// __constant__ data used by a kernel the host code launches and by one
// it never launches.
__constant__ float gains[4] = {0.5f, 1.0f, 1.5f, 2.0f};
__global__ void filtered(float *out) { out[threadIdx.x] *= gains[threadIdx.x & 3]; }
__global__ void unlaunched(float *out) { out[threadIdx.x] = gains[1]; }
void run(float *out) { filtered<<<1, 64>>>(out); }
