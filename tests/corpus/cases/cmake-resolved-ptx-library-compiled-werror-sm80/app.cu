__device__ int depth(const int *tree, int node, int n) {
  if (node >= n) return 0;
  return tree[node] + depth(tree, 2 * node + 1, n) + depth(tree, 2 * node + 2, n);
}
__global__ void run(const int *tree, int n, int *out) { if (threadIdx.x == 0) *out = depth(tree, 0, n); }
int main() { run<<<1, 32>>>(0, 0, 0); }
