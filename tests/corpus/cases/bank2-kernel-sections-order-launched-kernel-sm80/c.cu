// file c: kernel kC, launched from a.cu's kA, calls fj
extern __device__ int fj(int);
__global__ void kC(int *o) { o[0] = fj(o[1]) + 2; }
