__global__ void k_scan(int *data);
__global__ void k_sum(const float *in, float *out);
__global__ void k_mean(const float *in, float *out);
void run(int *d, float *f)
{
    k_scan<<<1, 128, 128 * sizeof(int)>>>(d);
    k_sum<<<1, 256>>>(f, f + 256);
    k_mean<<<1, 256>>>(f, f + 257);
}
