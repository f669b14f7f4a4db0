// a function template of twelve template parameters whose signature names the last ones (T10_, T11_ in the mangled name), as Thrust's operator- of two iterator_facades does
template <typename A, typename B, typename C, typename D, typename E, typename F> struct facade { A a; };
template <typename A1, typename B1, typename C1, typename D1, typename E1, typename F1,
          typename A2, typename B2, typename C2, typename D2, typename E2, typename F2>
__device__ __noinline__ int distance(const facade<A1, B1, C1, D1, E1, F1> &x, const facade<A2, B2, C2, D2, E2, F2> &y) {
	return (int)(x.a - y.a);
}
__global__ void k(int *p) {
	facade<int, char, short, long, float, double> x{p[0]}, y{p[1]};
	p[2] = distance(x, y);
}
