// Undefined variables come before undefined functions in this file's symbol table.
extern __device__ int table_b;
extern __device__ int table_a;
extern __device__ int table_c;
__device__ int step_b(int);
__device__ int step_a(int);
__device__ int step_c(int);
extern __constant__ int limit_b;
extern __constant__ int limit_a;

__device__ int stage(int x) { return step_b(x) + table_b + limit_b; }

__global__ void pipeline(int *p) {
  p[0] = step_a(p[1]) + table_a + stage(p[3]) + table_c + step_c(p[2]) + limit_a;
}

__device__ int never_called(int);
__device__ int orphan(int x) { return never_called(x); }
