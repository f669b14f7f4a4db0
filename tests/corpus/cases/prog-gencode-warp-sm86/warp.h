#pragma once
#include <cstdio>
__device__ unsigned lanes_with_same_key(int key);
__device__ int leader_of(unsigned mask);
__device__ int butterfly_max(int v);
__device__ unsigned vote_summary(bool p, unsigned *any_all);
__global__ void aggregated_increment(const int *keys, int n, int *counters);
__global__ void warp_stats(const int *v, int n, int *maxes, unsigned *votes);
