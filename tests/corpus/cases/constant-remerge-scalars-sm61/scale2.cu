__constant__ double scale_b = 1.5;
__global__ void use_scale_b(double *p) { p[threadIdx.x] /= scale_b; }
