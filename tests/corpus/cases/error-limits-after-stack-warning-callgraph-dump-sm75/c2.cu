__constant__ char cbig2[40000];
__global__ void kc2(int *p) { p[0] = cbig2[p[1]]; }
