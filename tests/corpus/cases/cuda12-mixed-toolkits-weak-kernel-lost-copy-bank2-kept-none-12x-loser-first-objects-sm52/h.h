#include <cstdio>
#ifdef CALLEE
template <typename T> __device__ __noinline__ T csw(int k, T x) { switch (k & 7) { case 0: return x; case 1: return x*2; case 2: return x/3; case 3: return x+7; case 4: return -x; case 5: return x*x; case 6: return x-1; default: return 0; } }
#endif
template <typename T> __global__ void tk(T* d, int n) {
  int i = threadIdx.x;
  T v = d[i] / (T)(n + 1) + sqrt(d[i] + (T)2);
#ifdef KSWITCH
  switch (n & 7) { case 0: v += 1; break; case 1: v *= 3; break; case 2: v -= 5; break; case 3: v = -v; break; case 4: v *= v; break; case 5: v += 9; break; case 6: v /= 7; break; default: break; }
#endif
#ifdef CALLEE
  v += csw<T>(i, v);
#endif
  d[i] = v;
}
