// a kernel whose code and -v report follow ptxas's -O level
__global__ void tile(const int *in, int *out, int w)
{
    int acc = 0;
    for (int r = 0; r < 8; r++)
        acc += in[(blockIdx.y * 8 + r) * w + threadIdx.x] * (r + 1);
    out[blockIdx.y * w + threadIdx.x] = acc ^ (acc >> 3);
}
