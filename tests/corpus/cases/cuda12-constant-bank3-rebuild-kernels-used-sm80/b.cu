__constant__ char xb[16] = {11};
__constant__ char big[0x6001] = {12};
__constant__ char ydev[16] = {13};
__device__ const char *dp = ydev;
__constant__ long long q8 = 0x1234;
__global__ void ka2(long long *o)
{
    int i = threadIdx.x;
    o[i] = big[i] + dp[i % 16] + q8;
}
