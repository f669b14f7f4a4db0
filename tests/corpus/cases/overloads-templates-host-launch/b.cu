// Overloads, a function template with two instances, a namespace, and
// variables, one of them file-static.
__device__ int hits;
static __device__ int secret = 42;

__device__ __noinline__ void bump(int *p)
{
    atomicAdd(p, 1);
    atomicAdd(&hits, 1);
}

__device__ __noinline__ void bump(float *p) { atomicAdd(p, 1.0f); }

template <typename T> __device__ __noinline__ T transform(T x) { return x * static_cast<T>(secret); }
template __device__ int transform<int>(int);
template __device__ float transform<float>(float);

namespace ns {
__device__ __noinline__ int f() { return hits; }
}

__device__ __noinline__ int only_unlaunched(int x) { return x * 3; }

__device__ __noinline__ int dead_helper(int x) { return x * 7; }
