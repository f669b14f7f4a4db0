// A table of element operations; the program takes their addresses but
// never calls through the table.
__device__ __noinline__ float op_square(float x) { return x * x; }
__device__ __noinline__ float op_half(float x) { return 0.5f * x; }
__device__ void *op_table[2] = {(void *)op_square, (void *)op_half};

__global__ void k_ops_ready(int *flag) { *flag = op_table[0] != 0 && op_table[1] != 0; }
