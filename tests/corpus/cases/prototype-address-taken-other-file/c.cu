// Calls f directly (listed in this file's .nv.prototype as an extern) and
// defines h, which the kernel inlines (a dead copy stays in the file).
__device__ int f(int);
__device__ int h(int x) { return x - 5; }
__global__ void kc(int *o) { o[0] = f(o[1]) + h(o[2]); }
