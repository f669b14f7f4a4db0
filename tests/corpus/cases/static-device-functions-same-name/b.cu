static __device__ int hidden_state = 'b';

static __device__ __noinline__ int helper(int x) { return x + hidden_state + sizeof("bb"); }

namespace {
__device__ __noinline__ int anon_helper(int x) { return x * 'b'; }
}

__global__ void kernel_b(int *out) { out[threadIdx.x] = helper(threadIdx.x) + anon_helper(1); }
