#pragma once
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
// Block-wide sum of T, one value per block, shared by several files.
template <typename T, int THREADS>
__global__ void block_sums(const T* in, T* out, int n) {
  using R = cub::BlockReduce<T, THREADS>;
  __shared__ typename R::TempStorage tmp;
  int i = blockIdx.x * THREADS + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  T s = R(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
// Exclusive prefix of flags within a block, then a warp max.
template <typename T, int THREADS>
__global__ void block_prefix(const T* in, T* out, T* wmax, int n) {
  using S = cub::BlockScan<T, THREADS>;
  using W = cub::WarpReduce<T>;
  __shared__ typename S::TempStorage st;
  __shared__ typename W::TempStorage wt[THREADS / 32];
  int i = blockIdx.x * THREADS + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  T p;
  S(st).ExclusiveSum(v, p);
  if (i < n) out[i] = p;
  T m = W(wt[threadIdx.x / 32]).Reduce(v, cub::Max());
  if (threadIdx.x % 32 == 0) wmax[i / 32] = m;
}
template <int THREADS, int ITEMS>
__global__ void tile_sort(unsigned* keys) {
  using L = cub::BlockLoad<unsigned, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
  using RS = cub::BlockRadixSort<unsigned, THREADS, ITEMS>;
  __shared__ union { typename L::TempStorage l; typename RS::TempStorage s; } t;
  unsigned k[ITEMS];
  unsigned* tile = keys + blockIdx.x * THREADS * ITEMS;
  L(t.l).Load(tile, k);
  __syncthreads();
  RS(t.s).SortBlockedToStriped(k);
  for (int j = 0; j < ITEMS; ++j) tile[j * THREADS + threadIdx.x] = k[j];
}
void run_sums(const float* in, float* out, int n);
void run_prefix(const int* in, int* out, int* wmax, int n);
void run_sort(unsigned* keys, int tiles);
