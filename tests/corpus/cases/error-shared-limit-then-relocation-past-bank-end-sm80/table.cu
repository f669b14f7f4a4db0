__device__ int slot;
__constant__ int* slot_ptr[1] = {&slot};
__constant__ int tail[2] = {7, 8};
__global__ void write_slot(int* p) { *slot_ptr[0] = p[0]; p[threadIdx.x] = tail[threadIdx.x & 1]; }
