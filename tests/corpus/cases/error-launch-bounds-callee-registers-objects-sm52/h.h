// Device functions compiled in files without a register limit.
__device__ double heavy(const double *p, int n);
__device__ double mid(const double *p, int n);
__device__ double mid2(const double *p, int n);
__device__ double chain(const double *p, int n);
__device__ double light(const double *p);
