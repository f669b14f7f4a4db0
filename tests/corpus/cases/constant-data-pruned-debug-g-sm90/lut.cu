__constant__ int lut[6] = {1, 2, 3, 4, 5, 6};
__global__ void lookup(int *p) { p[threadIdx.x] = lut[threadIdx.x % 6]; }
void run_lookup(int *p) { lookup<<<1, 32>>>(p); }
