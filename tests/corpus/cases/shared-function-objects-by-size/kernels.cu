// two kernels reach both objects (calling the small one first), one kernel each reaches only one
extern __device__ int big(int);
extern __device__ int small(int);

__global__ void k1(int *o) { o[0] = small(o[2]); o[3] = big(o[1]); }
__global__ void k2(int *o) { o[0] = small(o[2]); o[3] = big(o[1]); }
__global__ void kb(int *o) { o[0] = big(o[1]); }
__global__ void ks(int *o) { o[0] = small(o[1]); }
