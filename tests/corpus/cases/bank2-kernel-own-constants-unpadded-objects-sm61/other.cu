// A second file whose kernel's constants are its own (a double division
// and a float one) and a plain kernel.
__global__ void k_mix(double *d, float *f)
{
    int i = threadIdx.x;
    d[i] = d[i] / (d[i + 1] + 3.0);
    f[i] = expf(f[i]) / (f[i] + 2.0f);
}
__global__ void k_plain(int *p) { p[0] = 1; }
