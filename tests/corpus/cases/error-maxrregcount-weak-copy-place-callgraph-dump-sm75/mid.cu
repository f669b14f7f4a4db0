__device__ __noinline__ long long m(long long x)
{
	long long a[12];
	for (int i = 0; i < 12; i++) a[i] = x * (i + 7) ^ (x >> i);
	long long s = 0;
	for (int i = 0; i < 12; i++) s += a[i] * a[(i + 3) % 12];
	return s;
}
