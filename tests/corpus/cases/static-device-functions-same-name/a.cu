static __device__ int hidden_state = 'a';

static __device__ __noinline__ int helper(int x) { return x + hidden_state + sizeof("aa"); }

namespace {
__device__ __noinline__ int anon_helper(int x) { return x * 'a'; }
}

__global__ void kernel_a(int *out) { out[threadIdx.x] = helper(threadIdx.x) + anon_helper(1); }
