#pragma once
#include <cstdio>
template <typename T> struct Acc {
    T sum;
    __device__ void add(T v) { sum += v; }   // inline: a weak copy in every file that uses it
};
template <typename T> __device__ T saxpy_op(T a, T x, T y);
template <typename T, int N> __device__ T dot_strided(const T *a, const T *b, int i);
template <typename T> __global__ void axpy(T a, const T *x, T *y, int n);
template <typename T, int N> __global__ void dots(const T *a, const T *b, T *out, int n);
extern template __device__ float saxpy_op<float>(float, float, float);
extern template __device__ double saxpy_op<double>(double, double, double);
