__device__ double heavy(const double *p, int n)
{
	double a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7];
	for (int i = 0; i < n; ++i) {
		a = a * b + c; b = b * c + d; c = c * d + e; d = d * e + f;
		e = e * f + g; f = f * g + h; g = g * h + a; h = h * a + b;
	}
	return a + b + c + d + e + f + g + h;
}
