//go:build !unix

package linker

import (
	"context"
	"errors"
)

// earlyPtxas needs a FIFO (earlyptxas_unix.go); elsewhere ptxas runs
// once the PTX is there (startPtxasEarly gives nil).
type earlyPtxas struct{}

func startPtxasEarly(context.Context, string, []string) *earlyPtxas { return nil }

func (*earlyPtxas) finish([]byte) (*Compiled, error) {
	return nil, errors.New("no early ptxas on this system")
}

func (*earlyPtxas) abort() {}
