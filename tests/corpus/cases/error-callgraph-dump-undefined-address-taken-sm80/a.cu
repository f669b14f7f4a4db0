// a.cu: a virtual member declared, never defined; the vtable takes its address
struct Shape { __device__ virtual long long area(long long s) { return s; } };
struct Square : Shape { __device__ long long area(long long s) override; };
__global__ void kshape(long long *o)
{
	Shape *p = new Square();
	o[0] = p->area(o[1]);
	delete p;
}
