extern __global__ void child(int *p, int n);
__global__ void other_parent(int *p) { child<<<2, 16>>>(p, 8); }
