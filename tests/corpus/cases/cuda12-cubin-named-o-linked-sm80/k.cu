// Two kernels; the host code launches only one of them.
__global__ void launched(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void never_launched(int *p) { p[threadIdx.x] = -1; }
void run(int *p) { launched<<<1, 32>>>(p); }
