// Every shared variable is private to one kernel (template statics, a
// file-scope array one kernel uses, kernels' own arrays), and the unused
// double array is referenced by no code: each kernel's section is aligned
// only as its own variables need (1 for char arrays), although ptxas aligns
// the input sections to 8.
__shared__ double never_used[2];
__shared__ char used_once[2];

template <int N>
__global__ void k_template(char *out)
{
    __shared__ char t[N];
    t[threadIdx.x % N] = 1;
    __syncthreads();
    out[threadIdx.x] = t[1];
}
template __global__ void k_template<3>(char *);

__global__ void k_file_scope(char *out)
{
    used_once[threadIdx.x % 2] = 1;
    __syncthreads();
    out[threadIdx.x] = used_once[1];
}

__global__ void k_own(char *out)
{
    __shared__ char own[2];
    __shared__ short pair[2];
    own[threadIdx.x % 2] = 1;
    pair[threadIdx.x % 2] = 2;
    __syncthreads();
    out[threadIdx.x] = own[1] + pair[0];
}
