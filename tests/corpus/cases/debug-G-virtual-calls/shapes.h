struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual float scale(float f) const { return area() * f; }
    __device__ virtual ~Shape() {}
};

struct Square : Shape {
    float s;
    __device__ Square(float s) : s(s) {}
    __device__ float area() const override;
};

struct Circle : Shape {
    float r;
    __device__ Circle(float r) : r(r) {}
    __device__ float area() const override;
    __device__ float scale(float f) const override;
};

__device__ Shape *make_shape(int kind, float size);
