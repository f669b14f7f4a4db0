extern __constant__ int missing_table[8];        // defined nowhere

__global__ void k_uses_missing_const(int *out) { out[threadIdx.x] = missing_table[threadIdx.x & 7]; }
