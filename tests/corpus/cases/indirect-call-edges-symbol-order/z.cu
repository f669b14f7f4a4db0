// Calls f2 directly: linked first, it makes nvlink create f2's symbol first.
__device__ int f2(int);
__global__ void kz(int *o) { o[0] = f2(o[1]); }
