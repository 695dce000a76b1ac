// A CUDA program that knows nothing of KForge: the injection test traces it from outside.
// Launches exactly 100 tiny_kernel on the legacy default stream, 20 side_kernel on a created stream,
// one memset and two memcpys (HtoD, DtoH).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void tiny_kernel(int* p)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        p[0] += 1;
}

__global__ void side_kernel(int* p)
{
    atomicAdd(p + 1, 1);
}

int main()
{
    int* d = nullptr;
    if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) {
        std::fprintf(stderr, "inject_target: no CUDA device\n");
        return 2;
    }
    cudaMemset(d, 0, 64 * sizeof(int));
    std::vector<int> h(64, 0);
    cudaMemcpy(d + 32, h.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < 100; ++i)
        tiny_kernel<<<1, 32>>>(d);
    for (int i = 0; i < 20; ++i)
        side_kernel<<<2, 64, 0, s>>>(d);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("inject_target: tiny=%d side=%d (expect 100 and 2560)\n", h[0], h[1]);
    return h[0] == 100 && h[1] == 2560 && cudaGetLastError() == cudaSuccess ? 0 : 1;
}
