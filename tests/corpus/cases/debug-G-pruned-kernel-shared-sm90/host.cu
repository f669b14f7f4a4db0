// host code launching one of the kernels
__global__ void launched(int *p);
void run(int *p) { launched<<<1, 64>>>(p); }
