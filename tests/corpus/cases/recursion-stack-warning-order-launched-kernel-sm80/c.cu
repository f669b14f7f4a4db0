// file c: kernel kC, launched from a.cu's kA, calls rec
extern __device__ int rec(int);
__global__ void kC(int *o) { o[0] = rec(o[1]) + 2; }
