package linker

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestOutPipeSameBytes: a link written through an outPipe (the worker's
// writer for large outputs: buffers and sections handed to a goroutine
// that writes each at its offset) writes the bytes the same link writes
// through bufio. Only outputs of outPipeFrom bytes go through the pipe,
// more than any corpus case, so here the cases are linked both ways, with
// buffers small enough that every path is taken: patched code copied into
// the buffer, patched code larger than a buffer in one of its own, a
// borrowed section handed over as it is, and composed sections stepped
// over and written in place afterwards.
func TestOutPipeSameBytes(t *testing.T) {
	for _, c := range gatherCases {
		t.Run(c.name, func(t *testing.T) {
			ins := caseCubins(t, c.name)
			linkTo := func(name string, pipeFrom uint64, chunk, composedFrom int) []byte {
				ctx := newBenchContext(ins, 80)
				ctx.config.Debug = c.debug
				ctx.config.Output = filepath.Join(t.TempDir(), name)
				ctx.pipeFrom, ctx.pipeChunk, ctx.composedFrom = pipeFrom, chunk, composedFrom
				defer ctx.maps.unmapAll()
				if err := link(ctx); err != nil {
					t.Fatal(err)
				}
				out, err := os.ReadFile(ctx.config.Output)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			want := linkTo("bufio.cubin", math.MaxUint64, outPipeChunk, composedByInputBytes)
			for _, chunk := range []int{64, 1 << 10, outPipeChunk} {
				for _, composedFrom := range []int{0, composedByInputBytes} {
					got := linkTo("pipe.cubin", 0, chunk, composedFrom)
					if !bytes.Equal(got, want) {
						t.Errorf("through an outPipe of %d-byte buffers (composed sections written in place: %v): %d bytes differ from bufio's %d",
							chunk, composedFrom == 0, len(got), len(want))
					}
				}
			}
		})
	}
}
