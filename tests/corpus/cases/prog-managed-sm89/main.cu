// Host: writes managed memory directly, launches, synchronizes, reads back.
#include "sim.h"

int main()
{
    for (int i = 0; i < NCELLS; i++)
        grid_a[i] = (i == NCELLS / 2) ? 100.0f : 0.0f;
    for (int s = 0; s < 50; s++)
        diffuse<<<1, NCELLS>>>(0.25f);
    collect<<<NCELLS / 256, 256>>>();
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    std::printf("gen %d steps %d total %f peak %f\n", generation, stats.steps, stats.total, stats.peak);
    return stats.steps != 50;
}
