// A kernel that reaches recursion along several call graph edges: nvlink
// warns once per edge whose callee leads into a recursive chain.
extern __device__ int is_odd(int n);
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__device__ __noinline__ int leaf(int n) { return n * 3 + 1; }
__device__ __noinline__ int via(int n) { return fib(n) + leaf(n); }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {fib, leaf};

__global__ void k_three(int *out)
{
	int i = threadIdx.x;
	out[i] = fib(i) + via(i + 1) + leaf(i) + is_even(i + 2);
}

__global__ void k_ptr(int *out)
{
	int i = threadIdx.x;
	out[i] = ops[i & 1](i) + leaf(i);
}

__global__ void k_once(int *out) { out[threadIdx.x] = is_even(threadIdx.x); }
