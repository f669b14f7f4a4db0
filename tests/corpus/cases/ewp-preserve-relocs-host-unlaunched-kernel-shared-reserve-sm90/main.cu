__global__ void kb(float *out);
int main()
{
	float *o;
	cudaMalloc(&o, 1024);
	kb<<<1, 64>>>(o);
	return (int)cudaDeviceSynchronize();
}
