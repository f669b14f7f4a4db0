// parent launches child from the device; the host launches only parent.
// On sm_90 ptxas does not list child as address-taken in .nv.callgraph:
// parent's code holds only its descriptor (FUNC_DESC32_LO/HI_32).
__device__ int child_done;
__global__ void child(int *o, int d) { o[threadIdx.x] += d; if (threadIdx.x == 0) atomicAdd(&child_done, 1); }
__device__ int helper(int x);
__global__ void parent(int *o) { if (threadIdx.x == 0) child<<<1, 32>>>(o, helper(3)); }
int main() { parent<<<1, 1>>>(nullptr); return 0; }
