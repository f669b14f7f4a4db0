// A reduction template with three shared arrays of different element types:
// each instantiation's section is aligned as its own arrays need (4 for
// char and float, 8 for double), not to the largest of the file.
template <typename T, int N>
__global__ void reduce(const T *in, T *out)
{
    __shared__ T partial[N];
    __shared__ int count[4];
    __shared__ char flags[3];
    partial[threadIdx.x % N] = in[threadIdx.x];
    count[threadIdx.x % 4] = 1;
    flags[threadIdx.x % 3] = 2;
    __syncthreads();
    out[threadIdx.x] = partial[(threadIdx.x + 1) % N] + count[1] + flags[2];
}

template __global__ void reduce<float, 128>(const float *, float *);
template __global__ void reduce<double, 32>(const double *, double *);
template __global__ void reduce<char, 5>(const char *, char *);

// Equal-size arrays in a plain kernel: its own variables keep the sort's
// permutation too (a, c, b for three of one size).
__global__ void three_tiles(float *out)
{
    __shared__ float ta[64];
    __shared__ float tb[64];
    __shared__ float tc[64];
    ta[threadIdx.x % 64] = 1;
    tb[threadIdx.x % 64] = 2;
    tc[threadIdx.x % 64] = 3;
    __syncthreads();
    out[threadIdx.x] = ta[1] + tb[2] + tc[3];
}
