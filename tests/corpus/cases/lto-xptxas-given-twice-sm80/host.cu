// a non-LTO object beside the -dlto ones, so that nvlink 12.x links them (it refuses -dlto objects alone)
__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
