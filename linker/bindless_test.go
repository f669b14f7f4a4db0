package linker

import (
	"slices"
	"strconv"
	"testing"
)

// TestNvlinkListSort checks nvlinkListSort against the slot orders nvlink
// 11.8 gave n texture references read by one kernel (nvcc -dc -arch=sm_80,
// one file): each row lists, slot by slot, the position in the list
// nvlink sorts (textures from the last created to the first) of the
// reference that got the slot.
func TestNvlinkListSort(t *testing.T) {
	observed := [][]int{
		{0},
		{0, 1},
		{2, 0, 1},
		{2, 0, 3, 1},
		{0, 4, 2, 3, 1},
		{0, 4, 2, 1, 5, 3},
		{2, 6, 0, 4, 1, 5, 3},
		{2, 6, 0, 4, 3, 7, 1, 5},
		{8, 0, 4, 2, 6, 3, 7, 1, 5},
		{8, 0, 4, 2, 6, 9, 1, 5, 3, 7},
		{10, 2, 6, 8, 0, 4, 9, 1, 5, 3, 7},
		{10, 2, 6, 8, 0, 4, 11, 3, 7, 9, 1, 5},
		{8, 0, 12, 4, 10, 2, 6, 11, 3, 7, 9, 1, 5},
		{10, 2, 14, 6, 8, 0, 12, 4, 11, 3, 15, 7, 9, 1, 13, 5},
	}
	for _, want := range observed {
		refs := make([]*symbol, len(want))
		for i := range refs {
			refs[i] = &symbol{name: strconv.Itoa(i)}
		}
		var got []int
		for _, sym := range nvlinkListSort(refs) {
			i, _ := strconv.Atoi(sym.name)
			got = append(got, i)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d references: got slot order %v, nvlink's is %v", len(want), got, want)
		}
	}
}
