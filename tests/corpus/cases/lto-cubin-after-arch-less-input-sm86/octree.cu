// Counts the leaves under a node of an implicit tree: a recursive helper,
// so the kernel's stack size cannot be known at link time.
__device__ int leaves(const unsigned char *full, int node, int n)
{
    if (node >= n || !full[node]) return 1;
    int sum = 0;
    for (int c = 1; c <= 2; ++c) sum += leaves(full, 2 * node + c, n);
    return sum;
}

__global__ void k_count_leaves(const unsigned char *full, int n, int *out)
{
    out[blockIdx.x] = leaves(full, blockIdx.x, n);
}
