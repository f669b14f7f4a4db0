__device__ int slots_b[4];
__constant__ int *slot_ptrs_b[2] = {&slots_b[0], &slots_b[2]};
__global__ void fill_b(int v) { *slot_ptrs_b[threadIdx.x & 1] = v; }
void run_fill_b(int v) { fill_b<<<1, 2>>>(v); }
