// Indirect calls through parameters: no function of these prototypes has
// its address taken in this file. k_abc and k_cba make the calls in
// opposite orders.
typedef float (*fa)(float, int);
typedef double (*fb)(double);
typedef int (*fc)(int, int, int);

__global__ void k_abc(float *out, fa a, fb b, fc c)
{
    int i = threadIdx.x;
    float r = out[i];
    r += a(r, i);
    r += (float)b(r);
    r += c(i, i, 2);
    out[i] = r;
}

__global__ void k_cba(float *out, fa a, fb b, fc c)
{
    int i = threadIdx.x;
    float r = out[i];
    r += c(i, i, 2);
    r += (float)b(r);
    r += a(r, i);
    out[i] = r;
}
