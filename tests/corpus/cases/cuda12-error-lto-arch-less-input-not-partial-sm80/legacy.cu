// An old kernel its library still builds for Maxwell only.
__global__ void k_legacy_gain(float *v, float gain, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= gain;
}
