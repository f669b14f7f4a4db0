// The device-function half of the bundled example.
__constant__ float scale = 1.0f;

__device__ __noinline__ float fma_scaled(float a, float x, float y)
{
    return scale * (a * x + y);
}

// Never called: dead-code elimination removes it from the linked cubin.
__device__ __noinline__ float unused_helper(float v) { return v * v; }
