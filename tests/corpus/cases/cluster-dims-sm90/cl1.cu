// cluster-dims-sm90, file cl1: __cluster_dims__ kernels, cluster.sync and distributed shared memory (map_shared_rank), a kernel without cluster dims
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern __device__ float work(float);
__global__ void __cluster_dims__(2, 1, 1) kcluster(float *o) {
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float buf[64];
  buf[threadIdx.x % 64] = o[threadIdx.x];
  cluster.sync();
  float *remote = cluster.map_shared_rank(buf, (cluster.block_rank() + 1) % 2);
  o[threadIdx.x] = work(remote[threadIdx.x % 64]);
}
__global__ void __cluster_dims__(4, 2, 1) kcluster2(float *o) { o[threadIdx.x] = work(o[threadIdx.x]); }
__global__ void knocluster(float *o) { o[threadIdx.x] = cooperative_groups::this_cluster().num_blocks(); }
