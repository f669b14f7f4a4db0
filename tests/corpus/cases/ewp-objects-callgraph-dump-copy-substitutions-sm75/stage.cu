// A kernel whose parameters make substitution candidates (const float,
// const float *, float *) calls noinline functions taking namespaced class
// templates by reference: ptxas copies them into the kernel
// ($kernel$function), and the function's name refers to its own
// substitutions (S2_, S3_), which nvlink's demangler reads in one table
// with the kernel's.
namespace lib {
namespace detail {
enum class scope { block = 2, device = 10 };
}
template <detail::scope S> struct queue { float v[4]; };
template <class T, detail::scope S> struct slot { T t; };
}

__device__ __noinline__ float load_q(float *dst, const float *src, int n, lib::queue<lib::detail::scope::device> &q)
{
  float s = 0;
  for (int i = 0; i < n; ++i) { dst[i] = src[i] + q.v[i & 3]; s += dst[i]; }
  return s;
}

__device__ __noinline__ float take(const float *src, lib::slot<float, lib::detail::scope::block> &sl)
{
  return src[0] + sl.t;
}

__global__ void k_stage(const float *in, float *out, int n)
{
  lib::queue<lib::detail::scope::device> q = {{in[0], in[1], in[2], in[3]}};
  lib::slot<float, lib::detail::scope::block> sl = {in[4]};
  out[0] = load_q(out + 1, in, n, q) + take(in, sl);
}
