// Kernels only device code launches: recurse launches child_fill and itself,
// parent_stream child_fill and child_noparam on a stream of its own.
__global__ void child_fill(int *data, int n, int depth);
__global__ void child_noparam();
extern __device__ int g_depth_hits[8];
__global__ void recurse(int *data, int n, int depth)
{
    if (threadIdx.x == 0) {
        child_fill<<<(n + 63) / 64, 64>>>(data, n, depth);
        if (depth < 2) recurse<<<1, 32>>>(data, n / 2, depth + 1);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) g_depth_hits[7] = (int)e;
    }
}
__global__ void parent_stream(int *data, int n)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int *tmp;
    if (cudaMalloc((void **)&tmp, n * sizeof(int)) == cudaSuccess) {
        child_fill<<<1, 64, 0, s>>>(tmp, n, blockIdx.x);
        child_noparam<<<1, 1, 0, s>>>();
    }
    cudaStreamDestroy(s);
    data[blockIdx.x] = n;
}
