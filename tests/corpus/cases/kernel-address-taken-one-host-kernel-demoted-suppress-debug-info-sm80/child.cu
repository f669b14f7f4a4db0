// A kernel only device code names (its address taken).
__global__ void k_tail(int *d) { if (threadIdx.x == 0) d[0] = -d[0]; }
