// parent launches child and child2, which b.cu defines; -kernels-used names
// only parent. other is left out (removed); child, child2 and
// libcudadevrt's kernels stay because device code launches them.
__global__ void child(int *o, int d);
__global__ void child2(int *o);
__global__ void parent(int *o) {
  if (threadIdx.x == 0) { child<<<2, 32>>>(o, 3); child2<<<1, 1>>>(o); }
}
__global__ void other(int *o) { o[threadIdx.x] = 1; }
