__constant__ double scale_a = 1.5;
__global__ void use_scale_a(double *p) { p[threadIdx.x] *= scale_a; }
