typedef int (*binop)(int, int);
typedef float (*unop)(float);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ __noinline__ float op_sq(float x) { return x * x; }
__device__ __noinline__ float op_half(float x) { return x * 0.5f; }
__device__ __noinline__ int op_unused(int a, int b) { return a ^ b; }
__device__ binop pick_binop(int i) { return i ? op_add : op_max; }
__device__ unop pick_unop(int i) { return i ? op_sq : op_half; }
