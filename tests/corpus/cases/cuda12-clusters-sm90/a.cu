#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern __device__ float reduce_pair(float a, float b);
__global__ void __cluster_dims__(2, 1, 1) k_dsmem(float *out) {
  __shared__ float buf[64];
  cg::cluster_group cluster = cg::this_cluster();
  buf[threadIdx.x] = out[threadIdx.x];
  cluster.sync();
  float *peer = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
  out[threadIdx.x] = reduce_pair(buf[threadIdx.x], peer[threadIdx.x]);
  cluster.sync();
}
__global__ void k_runtime_cluster(float *out) {
  cg::cluster_group cluster = cg::this_cluster();
  out[threadIdx.x] = reduce_pair(out[threadIdx.x], (float)cluster.num_blocks());
}
