// One 16x16x16 tensor-core tile product through nvcuda::wmma fragments,
// accumulated over k and stored back with an optional scale.
#include "gemm.h"
using namespace nvcuda;

__device__ void mma_tile(const half *a, const half *b, float *c, int lda, int ldb, int ldc, int k)
{
    wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += TILE) {
        wmma::load_matrix_sync(fa, a + kk, lda);
        wmma::load_matrix_sync(fb, b + kk, ldb);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c, acc, ldc, wmma::mem_row_major);
}

__device__ void scale_tile(float *c, int ldc, float alpha)
{
    int lane = threadIdx.x & 31;
    for (int e = lane; e < TILE * TILE; e += 32)
        c[(e / TILE) * ldc + e % TILE] *= alpha;
}
