// the object after a text member in libX.a, which nvlink never reads
__device__ int d_value = 7;
__global__ void kd(int *p) { p[0] = d_value; }
