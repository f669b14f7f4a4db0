// many live values: the register count follows -maxrregcount (recorded with the PTX by nvcc, and nvlink's own)
__global__ void heavy_kernel(float *p, int n)
{
    float a[24];
#pragma unroll
    for (int j = 0; j < 24; j++)
        a[j] = p[threadIdx.x + j * n];
    float s = 0;
#pragma unroll
    for (int j = 0; j < 24; j++)
#pragma unroll
        for (int k = 0; k < 24; k++)
            s += a[j] * a[k] * (j + k);
    p[threadIdx.x] = s;
}
