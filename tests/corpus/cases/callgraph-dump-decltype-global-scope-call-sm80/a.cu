#include <utility>
// a function object whose call operator's return type is a decltype of a call expression with ::std::forward<decltype(param)>, as Thrust's thrust::plus<void> declares it
struct add_any {
	template <typename T1, typename T2>
	__device__ __noinline__ auto operator()(T1 &&t1, T2 &&t2) const -> decltype(::std::forward<decltype(t1)>(t1) + ::std::forward<decltype(t2)>(t2)) {
		return ::std::forward<T1>(t1) + ::std::forward<T2>(t2);
	}
};
__global__ void k(int *p) { int a = p[0], b = p[1]; p[2] = add_any()(a, b); }
