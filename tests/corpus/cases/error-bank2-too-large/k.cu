// a kernel calling both functions, so its bank 2 holds the constants of both
extern "C" __device__ double c1(const double*); extern "C" __device__ double c2(const double*);
__global__ void k(double *o) { o[threadIdx.x] = c1(o) + c2(o + 1); }
