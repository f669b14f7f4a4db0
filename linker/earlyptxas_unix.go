//go:build unix

package linker

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// earlyPtxas is the ptxas of an LTO link started before libnvvm has
// written the PTX it compiles: ptxas spends its first 25 to 30 ms loading
// and setting itself up (the same work whatever its input, about 24 ms of
// it before it opens the input; docs/benchmarks.md, perf20), which then
// runs on a CPU that libnvvm, compiling on one thread, leaves idle. Its
// input is a FIFO: ptxas blocks reading it until finish writes the PTX.
type earlyPtxas struct {
	cmd  *exec.Cmd
	dir  string       // the temporary directory: the FIFO, then the output
	fifo *os.File     // the FIFO, opened for reading and writing
	msgs bytes.Buffer // what ptxas prints
	done chan error   // cmd.Wait's result
	used bool         // finish or abort has run
}

// startPtxasEarly starts ptxas with args (ptxasArgs' options, without an
// input or output file) on a FIFO; nil if it cannot, and the link then
// runs ptxas when the PTX is there, as for any other PTX (runPtxas).
func startPtxasEarly(c context.Context, ptxas string, args []string) *earlyPtxas {
	dir, err := os.MkdirTemp("", "cudalink-ptxas-")
	if err != nil {
		return nil
	}
	in := filepath.Join(dir, inputMarker)
	if syscall.Mkfifo(in, 0o600) != nil {
		os.RemoveAll(dir)
		return nil
	}
	// Opened for writing and reading, so that neither this open nor
	// ptxas's waits for the other end, and ptxas's reads wait for the
	// PTX rather than end; non-blocking, so that a write waits in the
	// runtime's poller and Close can end it.
	fd, err := syscall.Open(in, syscall.O_RDWR|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.RemoveAll(dir)
		return nil
	}
	e := &earlyPtxas{dir: dir, fifo: os.NewFile(uintptr(fd), in), done: make(chan error, 1)}
	e.cmd = ptxasCommand(c, ptxas, dir, args, &e.msgs)
	if e.cmd.Start() != nil {
		e.fifo.Close()
		os.RemoveAll(dir)
		return nil
	}
	go func() { e.done <- e.cmd.Wait() }()
	return e
}

// finish gives ptxas the PTX src and returns what it made, as runPtxas
// does. ptxas reads its input a second time after compiling it, and
// seeks in it: before the FIFO's end is closed (the end of the input
// for ptxas's first read), a regular file with the same bytes takes its
// name, and ptxas opens that.
func (e *earlyPtxas) finish(src []byte) (*Compiled, error) {
	e.used = true
	defer os.RemoveAll(e.dir)
	written := make(chan error, 1)
	go func() {
		_, err := e.fifo.Write(src)
		written <- err
	}()
	var err error
	select {
	case err = <-written:
	case err = <-e.done: // ptxas ended before it read its input
		e.fifo.Close()
		<-written
		return e.result(err)
	}
	in := filepath.Join(e.dir, inputMarker)
	if err == nil {
		err = os.WriteFile(in+".tmp", src, 0o644)
	}
	if err == nil {
		err = os.Rename(in+".tmp", in)
	}
	e.fifo.Close()
	if err != nil {
		e.cmd.Process.Kill()
		<-e.done
		return nil, fmt.Errorf("cannot write ptxas's input: %v", err)
	}
	return e.result(<-e.done)
}

// result is ptxas's cubin and messages once it has exited with err, as
// runPtxas reads them.
func (e *earlyPtxas) result(err error) (*Compiled, error) {
	return ptxasResult(e.cmd.Path, e.dir, e.msgs.Bytes(), err)
}

// abort ends a ptxas that will not be given its input; nothing after
// finish, or on nil.
func (e *earlyPtxas) abort() {
	if e == nil || e.used {
		return
	}
	e.used = true
	e.cmd.Process.Kill()
	<-e.done
	e.fifo.Close()
	os.RemoveAll(e.dir)
}
