typedef int (*binop)(int, int);
typedef float (*unop)(float);

extern __device__ binop op_table[3];
extern __device__ unop unary_op;
extern __device__ binop pick(int i);

__device__ __noinline__ int apply(binop f, int a, int b) { return f(a, b); }

__global__ void k_table(int *out)
{
    out[threadIdx.x] = op_table[threadIdx.x % 3](out[threadIdx.x], 2) + apply(pick(threadIdx.x), 3, 4);
}

__global__ void k_unary(float *out) { out[threadIdx.x] = unary_op(out[threadIdx.x]); }
