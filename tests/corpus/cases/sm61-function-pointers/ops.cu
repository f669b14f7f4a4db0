typedef int (*binop)(int, int);
typedef float (*unop)(float);

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ float op_neg(float a) { return -a; }
__device__ __noinline__ int op_never_taken(int a, int b) { return a % b; }  // dead

__device__ binop op_table[3] = {op_add, op_sub, op_mul};     // initialized with function addresses
__device__ unop unary_op = op_neg;

__device__ __noinline__ binop pick(int i) { return i == 0 ? op_add : op_table[i % 3]; }
