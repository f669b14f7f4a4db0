// names nvlink's demangler spells its own way: template parameters as T1,
// template arguments as (int)4, packs, anonymous namespaces, constructors
template <typename T, int N> __device__ __noinline__ T sum(const T *p)
{
    T s = 0;
    for (int i = 0; i < N; i++) s += p[i];
    return s;
}
template <typename... Ts> __device__ __noinline__ int count(Ts... xs) { return sizeof...(xs); }
namespace {
__device__ __noinline__ int anon(int x) { return x * 7; }
}
namespace outer {
struct Acc {
    int v;
    __device__ __noinline__ Acc(int x) : v(x) {}
    __device__ __noinline__ int get() const { return v; }
};
}
__device__ __noinline__ int fp_target(int x) { return x; }
__device__ int (*fp)(int) = fp_target;
__global__ void k_tpl(float *f, int *o)
{
    outer::Acc a(o[0]);
    o[1] = (int)sum<float, 4>(f) + count(1, 2.0f, 'c') + anon(o[2]) + a.get() + fp(o[3]);
}
