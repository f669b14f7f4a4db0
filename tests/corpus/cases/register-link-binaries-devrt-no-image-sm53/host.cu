// host code launching the kernel of kern.cu
__global__ void kern(float *f);
void run(float *f) { kern<<<1, 64>>>(f); }
