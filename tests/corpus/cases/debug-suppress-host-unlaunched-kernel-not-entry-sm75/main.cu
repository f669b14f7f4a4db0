__global__ void launched(float *out);
int main()
{
	float *o;
	cudaMalloc(&o, 1024);
	launched<<<1, 32>>>(o);
	return (int)cudaDeviceSynchronize();
}
