// An address-taken function of a.cu's first prototype, called through a
// table, next to an indirect call of a prototype nothing takes here.
typedef float (*fa)(float, int);
typedef long long (*fd)(long long, long long);

__device__ float g(float r, int i) { return r * i; }

__global__ void k_table(float *out, fd d, fa *tab)
{
    int i = threadIdx.x;
    tab[0] = g;
    float r = out[i];
    r += (float)d(i, 3);
    r += tab[1](r, i);
    out[i] = r;
}
