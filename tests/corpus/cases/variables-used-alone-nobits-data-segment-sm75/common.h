// A histogram in two files: shared-memory atomics, an extern __shared__
// array, __device__ and __managed__ globals defined in one file, used in both.
#pragma once
#define NBINS 64
extern __device__ unsigned int g_total;
extern __device__ unsigned int g_overflow[4];
__device__ unsigned int bin_of(unsigned char v);
inline __device__ unsigned int clampu(unsigned int x, unsigned int hi) { return x < hi ? x : hi - 1; }
