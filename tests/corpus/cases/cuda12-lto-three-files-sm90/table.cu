// Kept as a function (noinline), reading constant data of its own file.
__constant__ float weights[8] = {0.5f, 0.25f, 0.125f, 1.0f, 2.0f, 4.0f, 8.0f, 16.0f};
__device__ __noinline__ float weigh(int i, float x)
{
    float acc = 0.0f;
    for (int k = 0; k < 8; k++)
        acc += weights[(i + k) & 7] * x;
    return acc;
}
