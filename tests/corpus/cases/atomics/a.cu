__device__ unsigned long long cas_target;
__device__ int int_counter;
__device__ float float_sum;

__device__ __noinline__ unsigned long long cas_increment()
{
    unsigned long long old = cas_target, assumed;
    do {
        assumed = old;
        old = atomicCAS(&cas_target, assumed, assumed + 1);   // 64-bit CAS
    } while (old != assumed);
    return old;
}

__global__ void k_atomics(int *sys_flag, double *dsum)
{
    __shared__ int block_count;
    if (threadIdx.x == 0)
        block_count = 0;
    __syncthreads();
    atomicAdd(&block_count, 1);
    atomicAdd(&int_counter, 1);
    atomicAdd(&float_sum, 0.5f);
    atomicAdd(dsum, 1.0);
    atomicAdd_system(sys_flag, 1);                              // system scope
    atomicAdd_block(&int_counter, 2);                           // block scope
    atomicMax(&int_counter, (int)threadIdx.x);
    if (threadIdx.x == 0)
        atomicExch(sys_flag + 1, block_count + (int)cas_increment());
}
