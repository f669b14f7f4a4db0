struct Pair { int a; double b; };

__device__ int zero_int;                              // no initializer -> .nv.global
__device__ double zero_array[17];
__device__ char odd_size[5];
__device__ int init_int = 42;                         // initialized -> .nv.global.init
__device__ long long init_array[4] = {1, 2, 3, 4};
__device__ Pair init_pair = {7, 2.5};
__device__ int *ptr_to_int = &init_int;               // needs a relocation in .nv.global.init
__device__ const char *message = "hello from defs.cu"; // string literal + pointer

__global__ void touch_defs(int *out)
{
    out[0] = zero_int + init_int + (int)init_array[threadIdx.x & 3] + init_pair.a + odd_size[1];
    zero_array[threadIdx.x % 17] = init_pair.b;
    out[1] = *ptr_to_int + message[0];
}
