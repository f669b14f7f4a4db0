// A kernel whose helper recurses: its stack size cannot be known at link time.
__device__ int depth_sum(const int *tree, int node, int n)
{
    if (node >= n) return 0;
    return tree[node] + depth_sum(tree, 2 * node + 1, n) + depth_sum(tree, 2 * node + 2, n);
}

__global__ void k_walk(const int *tree, int n, int *out)
{
    if (threadIdx.x == 0) *out = depth_sum(tree, 0, n);
}
