__global__ void K(long long *out, int n);
int main()
{
	K<<<1, 32, 64>>>(0, 3);
	return 0;
}
