// -dlto: a loop whose code depends on ptxas's -O level
__device__ float mix(float a, float b, int n)
{
    float s = 0;
    for (int k = 0; k < n; k++)
        s = s * a + b * k - (s > 1.0f ? s * 0.25f : 0.0f);
    return s;
}
