__global__ void used(float *p);

int main()
{
    float *p;
    cudaMalloc(&p, 64);
    used<<<1, 4>>>(p);
    return 0;
}
