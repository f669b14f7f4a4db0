__constant__ float coeffs[5] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f};
__constant__ char tag;                     // no initializer, 1 byte
__constant__ int table_len = 3;

__global__ void k1(float *out)
{
    out[threadIdx.x] = coeffs[threadIdx.x % 5] + tag + table_len;
}
