__constant__ char cbig1[40000];
__global__ void kc1(int *p) { p[0] = cbig1[p[1]]; }
