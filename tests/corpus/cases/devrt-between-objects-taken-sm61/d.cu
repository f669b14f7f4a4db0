// kL calls fx, which z.cu defines: when nvlink reaches libcudadevrt.a, given between the two, fx is undefined
extern __device__ int fx(int);
__device__ int g_x;
__global__ void kL(int *o) { o[0] = fx(g_x); }
