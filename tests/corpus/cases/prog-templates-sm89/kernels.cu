// Kernel templates calling the device templates of ops.cu; instantiated
// explicitly here for the types main.cu launches.
#include "vec.h"

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = saxpy_op<T>(a, x[i], y[i]);
}

template <typename T, int N> __global__ void dots(const T *a, const T *b, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Acc<T> acc{T(0)};
        acc.add(dot_strided<T, N>(a, b, i));
        out[i] = acc.sum;
    }
}

template __global__ void axpy<float>(float, const float *, float *, int);
template __global__ void axpy<double>(double, const double *, double *, int);
template __global__ void dots<float, 4>(const float *, const float *, float *, int);
template __global__ void dots<double, 8>(const double *, const double *, double *, int);
