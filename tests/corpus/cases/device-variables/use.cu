struct Pair { int a; double b; };

extern __device__ int zero_int;
extern __device__ int init_int;
extern __device__ long long init_array[4];
extern __device__ Pair init_pair;
extern __device__ int *ptr_to_int;

__device__ short local_short = 3;                     // this file's own variables
__device__ float local_floats[3];

__device__ __noinline__ long long read_all(int i)
{
    return zero_int + init_int + init_array[i & 3] + init_pair.a + *ptr_to_int + local_short;
}

__global__ void use_defs(long long *out)
{
    out[threadIdx.x] = read_all(threadIdx.x);
    local_floats[threadIdx.x % 3] = 1.0f;
    zero_int = 1;
}
