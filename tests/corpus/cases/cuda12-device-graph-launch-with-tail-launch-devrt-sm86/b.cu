__global__ void tail(int *p) { atomicAdd(p, 1); }
