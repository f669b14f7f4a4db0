// enough live values that ptxas's -O level changes the code and the registers it reports with -v
__global__ void blend(const float *in, float *out, int n)
{
    float v[12];
#pragma unroll
    for (int j = 0; j < 12; j++)
        v[j] = in[threadIdx.x + j * n];
    float acc = 0;
#pragma unroll
    for (int j = 0; j < 12; j++)
        acc += v[j] * v[(j * 5) % 12] - v[(j + 7) % 12];
    out[threadIdx.x] = acc;
}
