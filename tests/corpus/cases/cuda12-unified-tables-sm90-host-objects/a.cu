struct Shape { __device__ virtual float area() const = 0; __device__ virtual ~Shape() {} };
extern __device__ Shape *make(int kind, float s);
typedef float (*metric)(float);
extern __device__ metric metrics[2];
__global__ void k_area(float *out, int kind) {
  Shape *s = make(kind, out[0]);
  out[threadIdx.x] = s->area() + metrics[kind & 1](out[threadIdx.x]);
  delete s;
}
