__device__ int slots_a[4];
__constant__ int *slot_ptrs_a[2] = {&slots_a[0], &slots_a[2]};
__global__ void fill_a(int v) { *slot_ptrs_a[threadIdx.x & 1] = v; }
void run_fill_a(int v) { fill_a<<<1, 2>>>(v); }
