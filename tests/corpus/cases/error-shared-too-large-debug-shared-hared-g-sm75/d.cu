// A kernel calling both: 80001 bytes, over every limit.
__device__ void fill_a(int *p);
__device__ void fill_b(int *p);
__global__ void kern_d(int *p) { fill_a(p); fill_b(p); }
