#include <cstdint>
__device__ __noinline__ void arrive_cp(uint64_t *b)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(b);
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(a) : "memory");
}
__device__ __noinline__ void arrive_plain(uint64_t *b)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(b);
    asm volatile("{\n.reg .b64 t;\nmbarrier.arrive.shared.b64 t, [%0];\n}" :: "r"(a) : "memory");
}
__device__ __noinline__ int zed() { return blockIdx.z; }
