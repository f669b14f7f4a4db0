// Kernels whose own code uses no sparse mma: one reaches HMMA.SP through
// another function, one both variants, one IMMA.SP directly, one none.
__device__ void sp_int8(int *d, const unsigned *a, const unsigned *b, unsigned e);
__device__ void through(float *d, const unsigned *a, const unsigned *b, unsigned e);
__device__ void plain(float *d);
__global__ void k_through(float *d, const unsigned *a, const unsigned *b, unsigned e) { through(d, a, b, e); }
__global__ void k_both(float *d, int *i, const unsigned *a, const unsigned *b, unsigned e)
{
    through(d, a, b, e);
    sp_int8(i, a, b, e);
}
__global__ void k_int8(int *i, const unsigned *a, const unsigned *b, unsigned e) { sp_int8(i, a, b, e); }
__global__ void k_plain(float *d) { plain(d); }
