__global__ void klaunched(long long *out);
int main()
{
	klaunched<<<1, 1>>>(0);
	return 0;
}
