// Host code launches k_main and k_other, never k_unlaunched.
__device__ int counter;
__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};

extern __device__ void bump(int *p);
extern __device__ void bump(float *p);
template <typename T> __device__ T transform(T x);
namespace ns {
__device__ int f();
}
__device__ int only_unlaunched(int x);

__global__ void k_main(int *ip, float *fp)
{
    bump(ip);
    bump(fp);
    ip[1] = transform<int>(ip[2]) + ns::f();
    fp[1] = transform<float>(fp[2]) * coeffs[threadIdx.x & 3];
    atomicAdd(&counter, 1);
}

__global__ void k_other(int *ip) { bump(ip); }

__global__ void k_unlaunched(float *fp) { fp[0] = transform<float>(fp[0]) + only_unlaunched(threadIdx.x); }

int main()
{
    k_main<<<1, 1>>>(nullptr, nullptr);
    k_other<<<1, 1>>>(nullptr);
    return 0;
}
