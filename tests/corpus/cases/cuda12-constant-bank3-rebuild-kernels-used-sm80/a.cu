__constant__ char s7[7] = {7, 7, 7, 7, 7, 7, 7};
__constant__ int x3[3] = {3, 3, 3};
__constant__ char s5[5] = {5, 5, 5, 5, 5};
__constant__ int4 v16[1] = {{16, 17, 18, 19}};
__constant__ char r16[16] = {1};
__constant__ short t2[2] = {2, 2};
__constant__ char unused_here[24] = {9};
extern __constant__ char xb[16];
__constant__ char tgt[16] = {4};
__constant__ const char *cp = tgt;
__global__ void ka(long long *o)
{
    int i = threadIdx.x;
    o[i] = s7[i % 7] + x3[i % 3] + s5[i % 5] + v16[0].y + r16[i % 16] + t2[i % 2] + xb[i % 16] + cp[i % 16];
}
