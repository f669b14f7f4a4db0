__global__ void k_bytes(char *out)
{
    __shared__ char buf[37];
    buf[threadIdx.x % 37] = (char)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % 37];
}

__global__ void k_mixed(double *out)
{
    __shared__ char c[3];
    __shared__ double d[9];
    __shared__ int i[5];
    c[threadIdx.x % 3] = 1;
    d[threadIdx.x % 9] = threadIdx.x;
    i[threadIdx.x % 5] = 2;
    __syncthreads();
    out[threadIdx.x] = d[(threadIdx.x + 1) % 9] + c[0] + i[1];
}

__global__ void k_none(int *out) { out[threadIdx.x] = threadIdx.x; }
