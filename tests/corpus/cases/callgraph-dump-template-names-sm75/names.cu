// Demangler constructs: several template parameters with equal arguments,
// SFINAE, expressions in template arguments, packs, decltype, operators,
// nested templates, lambdas in templates, members of class templates.
#include <cstddef>
template <bool B, class T = void> struct en_if {};
template <class T> struct en_if<true, T> { typedef T type; };
template <class T> struct is_fp { static const bool value = false; };
template <> struct is_fp<float> { static const bool value = true; };
template <int N> struct Int { static const int value = N; };

template <class A, class B, class C>
__device__ __noinline__ A mix3(A a, B b, C c) { return a + (A)b + (A)c; }

template <class T>
__device__ __noinline__ typename en_if<is_fp<T>::value && sizeof(T) == 4, T>::type
only_fp(T x) { return x * 2; }

template <class T>
__device__ __noinline__ typename en_if<!is_fp<T>::value || (sizeof(T) > 4), T>::type
only_fp(T x) { return x + 1; }

template <int N, int M>
__device__ __noinline__ int sumN(Int<N + M> *p, Int<(N > M) ? N : M> *q) { return N + M + (p != 0) + (q != 0); }

template <class... Ts>
__device__ __noinline__ int count(Ts... ts) { return sizeof...(Ts); }

template <class T, class U>
__device__ __noinline__ auto add(T t, U u) -> decltype(t + u) { return t + u; }

template <class T>
struct Vec {
  T x, y;
  __device__ __noinline__ Vec operator+(const Vec &o) const { return Vec{x + o.x, y + o.y}; }
  __device__ __noinline__ bool operator==(const Vec &o) const { return x == o.x && y == o.y; }
  __device__ __noinline__ Vec &operator+=(const Vec &o) { x += o.x; y += o.y; return *this; }
  template <class U> __device__ __noinline__ Vec<U> cast(const Vec<U> *hint) const { return Vec<U>{(U)x, (U)y}; }
  template <class U, class V> __device__ __noinline__ T dot(const Vec<U> &a, const Vec<V> &b, const Vec &c) const { return x * a.x + y * b.y + c.x; }
};

template <class F, class T>
__device__ __noinline__ T apply2(F f, T a, T b) { return f(a, b); }

template <class T>
__device__ __noinline__ T via_lambda(T a) {
  auto l = [=] __device__(T u, T v) { return u * v + a; };
  return apply2(l, a, a);
}

template <class T, class U>
__device__ __noinline__ T same2(T *a, U *b, T &c, const U &d) { return *a + (T)*b + c + (T)d; }

template <class T, int N>
__device__ __noinline__ T arr(T (&a)[N], T (*f)(T)) { return f(a[N - 1]); }

__device__ __noinline__ float neg(float x) { return -x; }

__global__ void k(float *out, int *iout) {
  float f = out[0];
  out[1] = mix3(f, f, f) + mix3(f, 1, 2.0) ;
  out[2] = only_fp(f);
  iout[0] = only_fp(iout[1]);
  out[3] = (float)only_fp((double)f);
  iout[2] = sumN<2, 3>(nullptr, nullptr) + count(1, 2.0f, 'c') + count();
  out[4] = add(f, 2) + add(1, 2.0);
  Vec<float> a{f, f}, b{1, 2};
  a += b;
  Vec<float> c = a + b;
  out[5] = c.x + (a == b) + c.cast<int>(nullptr).x + c.dot(Vec<int>{1, 2}, Vec<int>{3, 4}, c) + c.dot(Vec<double>{1, 2}, Vec<int>{3, 4}, c);
  out[6] = via_lambda(f) + via_lambda(iout[3]);
  out[7] = same2(&f, &f, f, f) + same2(out, iout, f, iout[0]);
  float ar[3] = {f, f, f};
  out[8] = arr(ar, neg);
}
