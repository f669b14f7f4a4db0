// Only a char array here; the double array of b.cu's dead function still
// sets this kernel's shared alignment to 8.
__global__ void k_char(char *out)
{
    __shared__ char c[3];
    c[threadIdx.x % 3] = 1;
    __syncthreads();
    out[threadIdx.x] = c[2];
}
