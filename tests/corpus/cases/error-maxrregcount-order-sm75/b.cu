__device__ __noinline__ long long hv1(long long x)
{
	long long a[12];
	for (int i = 0; i < 12; i++) a[i] = x * (i + 3) ^ (x >> i);
	long long s = 0;
	for (int i = 0; i < 12; i++) s += a[i] * a[(i + 5) % 12];
	return s;
}
__device__ __noinline__ long long hv2(long long x)
{
	long long a[20];
	for (int i = 0; i < 20; i++) a[i] = x * (i + 7) ^ (x >> (i & 7));
	long long s = 0;
	for (int i = 0; i < 20; i++) s += a[i] * a[(i + 9) % 20] + hv1(a[i]);
	return s;
}
