__global__ void k_refine(float *tile, int level);
__global__ void k_refine_helper(float *tile);
__global__ void k_refine_via(float *tile);
__global__ void k_refine_all(float *tile);
__global__ void k_scale(float *tile);
void refine(float *t)
{
    k_refine<<<4, 64>>>(t, 0);
    k_refine_helper<<<dim3(2, 2), 64>>>(t);
    k_refine_via<<<dim3(2, 2), 64>>>(t);
    k_refine_all<<<1, 64>>>(t);
    k_scale<<<4, 64>>>(t);
}
