struct Shape {
  __device__ virtual float area() const;
  __device__ virtual int sides() const { return 0; }
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ Square(float x) : s(x) {}
  __device__ float area() const override;
  __device__ int sides() const override { return 4; }
};
