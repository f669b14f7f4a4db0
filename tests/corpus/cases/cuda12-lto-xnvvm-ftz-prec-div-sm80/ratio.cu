// A device function with float division and square root: libnvvm's -ftz
// and -prec-div change the code it makes for them.
__device__ float ratio(float a, float b)
{
    return sqrtf(a) / (b + 0.5f);
}
