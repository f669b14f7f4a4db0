template <int N> __device__ __noinline__ long long tw(long long x)
{
	long long a[12];
	for (int i = 0; i < 12; i++) a[i] = x * (i + N) ^ (x >> i);
	long long s = 0;
	for (int i = 0; i < 12; i++) s += a[i] * a[(i + 5) % 12];
	return s;
}
