__constant__ char t1[16] = {1};
__constant__ char t2[16] = {2};
__constant__ char t3[16] = {3};
__constant__ const char *cp = t1;
__device__ const char *dp = t2;
__constant__ char big[0xb000] = {9};
__global__ void ka(long long *o) { int i = threadIdx.x; o[i] = cp[i%16] + dp[i%16] + big[i]; }
__global__ void kx(long long *o) { int i = threadIdx.x; o[i] = t3[i%16]; }
