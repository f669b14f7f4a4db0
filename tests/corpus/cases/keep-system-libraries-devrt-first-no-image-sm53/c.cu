// kL calls nothing outside this file: nothing is undefined when nvlink reaches libcudadevrt.a after it
__device__ int g_x;
__global__ void kL(int *o) { o[0] = g_x; }
