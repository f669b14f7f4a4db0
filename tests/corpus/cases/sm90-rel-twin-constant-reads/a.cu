// Each kernel reads __constant__ c at offsets 0 and 4 in a different
// order; ptxas sorts .rela.text.<k> by decreasing offset, so the entry
// with addend 0 (c[0]) is first, second or alone.
__constant__ float c[16];

__global__ void zero_first(float *out) { int i = threadIdx.x; out[i] = c[1]; out[i + 32] = c[0]; }
__global__ void zero_second(float *out) { int i = threadIdx.x; out[i] = c[0]; out[i + 32] = c[1]; }
__global__ void zero_alone(float *out) { int i = threadIdx.x; out[i] = c[0]; }
