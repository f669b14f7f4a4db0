extern __device__ int hvar;
__device__ int gvar = 5;
__global__ void k_g(int *o) { o[0] = hvar + gvar; }
void launch_g(int *p) { k_g<<<1, 1>>>(p); }
