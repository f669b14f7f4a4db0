// A device function nothing calls holds a double shared array: its code
// still refers to it, so nvlink keeps it module-wide and aligns every
// kernel's shared memory to 8, even those of other files with only char
// arrays.
__device__ __noinline__ double dead(int i)
{
    __shared__ double d[2];
    d[i % 2] = i;
    __syncthreads();
    return d[1];
}
