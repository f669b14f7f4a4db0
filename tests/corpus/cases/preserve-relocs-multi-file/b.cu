// multi-arch case, file b: calls back into a and c, function pointers, a switch with a jump table
extern __device__ int a_counter;                  // a.cu
extern __device__ int c_accumulate(int x);        // c.cu
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }

__device__ __noinline__ int inc(int x) { return x + 1; }
__device__ __noinline__ int dec(int x) { return x - 1; }
__device__ int (*b_ops[2])(int) = {inc, dec};

__device__ __noinline__ int b_select(int op, int x)
{
    switch (op) {
    case 0: return x * 3;  case 1: return x ^ 5;  case 2: return x - 9;   case 3: return x << 2;
    case 4: return x / 7;  case 5: return x + 13; case 6: return x * x;   case 7: return ~x;
    default: return x;
    }
}

__device__ __noinline__ int b_transform(int x)
{
    return b_ops[x & 1](x) + b_select(x & 7, x) + c_accumulate(x) + a_counter + twice(x);
}
