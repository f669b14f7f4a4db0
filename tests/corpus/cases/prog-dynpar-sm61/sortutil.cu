// Sequential pieces of the quicksort, run by one thread of a child grid.
#include "qs.h"

__device__ void insertion_sort(unsigned *a, int lo, int hi)
{
    for (int i = lo + 1; i <= hi; i++) {
        unsigned v = a[i];
        int j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

__device__ int partition_range(unsigned *a, int lo, int hi)
{
    unsigned pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
            unsigned t = a[i]; a[i] = a[j]; a[j] = t;
            i++; j--;
        }
    }
    return i;
}
