typedef int (*combine)(int, int);
extern __device__ combine table[2];
__global__ void k_child(int *out, int v)
{
    out[threadIdx.x] = table[threadIdx.x & 1](v, (int)threadIdx.x);
}
__global__ void k_parent(int *out, int n)
{
    if (threadIdx.x == 0)
        k_child<<<1, n>>>(out, n);
}
