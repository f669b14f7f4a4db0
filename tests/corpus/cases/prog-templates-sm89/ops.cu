// Explicit instantiations of the device templates (their only definitions).
#include "vec.h"

template <typename T> __device__ T saxpy_op(T a, T x, T y)
{
    return a * x + y;
}

template <typename T, int N> __device__ T dot_strided(const T *a, const T *b, int i)
{
    Acc<T> acc{T(0)};
#pragma unroll
    for (int k = 0; k < N; k++)
        acc.add(a[i * N + k] * b[i * N + k]);
    return acc.sum;
}

template __device__ float saxpy_op<float>(float, float, float);
template __device__ double saxpy_op<double>(double, double, double);
template __device__ float dot_strided<float, 4>(const float *, const float *, int);
template __device__ double dot_strided<double, 8>(const double *, const double *, int);
