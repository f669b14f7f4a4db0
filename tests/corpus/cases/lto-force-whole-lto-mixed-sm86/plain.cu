// Built without -dlto: the link becomes a partial LTO.
__device__ int plain_helper(int x) { return x ^ 0x5a; }
__global__ void plainkern(int *q) { q[threadIdx.x] = plain_helper(q[threadIdx.x]); }
