#include <cstdint>
__device__ void arrive_cp(uint64_t *b);
__device__ void arrive_plain(uint64_t *b);
__device__ int zed();
__device__ __noinline__ void via(uint64_t *b) { arrive_plain(b); }
__global__ void k_cp(int *p) { __shared__ uint64_t bar; arrive_cp(&bar); p[0] = (int)bar; }
__global__ void k_chain(int *p) { __shared__ uint64_t bar; via(&bar); p[0] = (int)bar; }
__global__ void k_z_then_arrive(int *p) { __shared__ uint64_t bar; p[0] = zed(); arrive_cp(&bar); p[1] = (int)bar; }
__global__ void k_own_init(int *p)
{
    __shared__ uint64_t bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(32) : "memory");
    arrive_plain(&bar);
    p[0] = (int)bar;
}
__global__ void k_none(int *p) { p[0] = zed(); }
