package linker

import (
	"errors"
	"io"
	"math"
	"os"
	"sync"
)

// outPipe writes a large output file on a goroutine of its own while
// writeTo goes on encoding: writeTo hands it filled buffers and the
// sections' bytes, and the goroutine writes each at its offset (pwrite).
// A link is otherwise serial, and the kernel's copy of the output into the
// page cache was about half of "write output" (a warm worker's relink of
// the large 400-object benchmark program: 37 MB, 25 of that pass's 55 ms
// of CPU in write and pwrite), time in which the second CPU sat idle.
//
// It has bufio.Writer's methods that writeTo uses (Write, Flush,
// Available, AvailableBuffer, Size), and stableWriter's: the bytes of a
// borrowed section are handed over as they are (they do not change until
// the link is over), and a patched copy is made in a buffer the pipe
// hands out and takes back once written, so no section is copied more
// often than through bufio. The order of the bytes in the file is the
// order writeTo gives them; only the time they reach the file differs.
type outPipe struct {
	f     *os.File
	chunk int    // the size of the buffers Write fills
	off   int64  // where the next byte goes
	cur   []byte // the buffer Write fills, writes off-len(cur) on
	jobs  chan pipeJob
	free  chan []byte // buffers written, to be filled again
	done  chan error  // the goroutine's first error, once jobs is closed
	err   error       // the goroutine's error, after close
	// at gathers WriteAt's copies, each to be written where atSegs says.
	at     []byte
	atSegs []pipeSeg
	// copies are the patched copies cur waits for (writePatched).
	copies []pipeCopy
}

// pipeCopy is a patched copy the goroutine makes in a buffer before it
// writes it: src with patches applied, at b[at:].
type pipeCopy struct {
	at      int
	src     []byte
	patches []patch
}

// pipeJob is one write: b at off. A buffer the pipe owns (own) goes back
// to free once written.
type pipeJob struct {
	b   []byte
	off int64
	own bool
	// segs, if not nil, are pieces of b, each written at its own offset
	// (WriteAt's), and off is not used.
	segs []pipeSeg
	// copies are made in b before it is written (writePatched).
	copies []pipeCopy
}

// pipeSeg is b[start:end] of a pipeJob, written at off.
type pipeSeg struct {
	off        int64
	start, end int
}

// outPipeFrom is the size of an output from which the worker's links
// write through an outPipe. Below it a link's output is a few system
// calls, cheaper than waking a thread for them.
const outPipeFrom = 8 << 20

// pipeFrom is linkContext.pipeFrom for a link: outPipeFrom in the worker,
// never in a one-shot link, whose CPU time (what a build running many
// links at once waits for) would only grow by the hand-offs, and whose
// peak memory by the buffers in flight.
func pipeFrom(cfg *Config) uint64 {
	if cfg.OneShot {
		return math.MaxUint64
	}
	return outPipeFrom
}

// outPipeQueue is how many writes may wait for the goroutine: writeTo
// blocks when it is that far ahead, which bounds the buffers in flight.
const outPipeQueue = 4

// outPipeChunk is the size of the buffers Write fills: each is one hand-off
// to the goroutine (a futex wake-up when it waits) and one pwrite. With
// bufio's 64 KiB, the large program's output took 1,300 of them.
const outPipeChunk = 1 << 20

func newOutPipe(f *os.File, off int64, chunk int) *outPipe {
	p := &outPipe{
		f:     f,
		chunk: chunk,
		off:   off,
		jobs:  make(chan pipeJob, outPipeQueue),
		free:  make(chan []byte, outPipeQueue+2),
		done:  make(chan error, 1),
	}
	p.cur = p.buffer(chunk)[:0]
	go p.run()
	return p
}

// pipeBuffers keeps the outPipes' buffers (of outPipeChunk bytes) from
// one link to the next: a warm worker relink of the large 400-object
// program made 4.3 MB of new ones each time, a tenth of what it
// allocated, which set the collector going that much sooner.
var pipeBuffers sync.Pool // of *[]byte

// keep gives a buffer the pipe is done with to pipeBuffers, if it has
// their size.
func (p *outPipe) keep(b []byte) {
	if cap(b) == outPipeChunk && p.chunk == outPipeChunk {
		b = b[:0]
		pipeBuffers.Put(&b)
	}
}

func (p *outPipe) run() {
	var err error
	for j := range p.jobs {
		for _, c := range j.copies {
			b := j.b[c.at : c.at+len(c.src)]
			copy(b, c.src)
			applyPatches(b, 0, c.patches)
		}
		if err == nil && j.segs != nil {
			for _, seg := range j.segs {
				if _, err = p.f.WriteAt(j.b[seg.start:seg.end], seg.off); err != nil {
					break
				}
			}
		} else if err == nil {
			_, err = p.f.WriteAt(j.b, j.off)
		}
		if j.own {
			select {
			case p.free <- j.b[:0]:
			default: // enough spare buffers: keep this one for another link
				p.keep(j.b)
			}
		}
	}
	p.done <- err
}

// Size is the size of the buffer Write fills.
func (p *outPipe) Size() int { return p.chunk }

// Available is the room left in the buffer Write fills.
func (p *outPipe) Available() int { return cap(p.cur) - len(p.cur) }

// AvailableBuffer returns the buffer's free room, empty, for appending to
// and passing to Write.
func (p *outPipe) AvailableBuffer() []byte { return p.cur[len(p.cur):][:0] }

// Write copies b into the buffer, handing each full one to the goroutine.
// It never fails: the goroutine's first error comes from close.
func (p *outPipe) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if len(p.cur) == cap(p.cur) {
			p.Flush()
		}
		k := copy(p.cur[len(p.cur):cap(p.cur)], b)
		p.cur = p.cur[:len(p.cur)+k]
		b = b[k:]
	}
	return n, nil
}

// Flush hands the buffer to the goroutine and takes an empty one.
func (p *outPipe) Flush() error {
	if len(p.cur) == 0 {
		return nil
	}
	p.jobs <- pipeJob{b: p.cur, off: p.off, own: true, copies: p.copies}
	p.off += int64(len(p.cur))
	p.cur, p.copies = p.buffer(p.chunk)[:0], nil
	return nil
}

// writePatched writes src with patches applied (a borrowed section's
// code and its relocated fields), no larger than the buffer: it takes
// the room in the buffer, and the goroutine makes the copy there before
// it writes the buffer. Neither src nor patches may change until close.
// The copies of a relink's code (the large 400-object program: 7,200
// functions, 37 MB) then leave the link's goroutine as the kernel's copy
// did.
func (p *outPipe) writePatched(src []byte, patches []patch) {
	if len(src) > p.Available() {
		p.Flush()
	}
	at := len(p.cur)
	p.cur = p.cur[:at+len(src)]
	p.copies = append(p.copies, pipeCopy{at, src, patches})
}

// buffer returns a buffer of n bytes for a copy the caller fills and
// passes to writeStable.
func (p *outPipe) buffer(n int) []byte {
	select {
	case b := <-p.free:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	if n <= outPipeChunk && p.chunk == outPipeChunk {
		if b, ok := pipeBuffers.Get().(*[]byte); ok {
			return (*b)[:n]
		}
	}
	return make([]byte, n, max(n, p.chunk))
}

// writeStable writes b, which nothing changes until close: a section's
// bytes, or a buffer from buffer (the pipe's again from now on).
func (p *outPipe) writeStable(b []byte, own bool) {
	p.Flush()
	if len(b) == 0 {
		return
	}
	p.jobs <- pipeJob{b: b, off: p.off, own: own}
	p.off += int64(len(b))
}

// WriteAt writes a copy of b at off, a range that no other write touches
// (one that Seek stepped over). The copies are gathered in a buffer
// handed over when full: the composer writes each run of a composed
// section's members that follow one another in the file on its own, and
// a hand-off each would cost about what the pwrite it saves the caller.
func (p *outPipe) WriteAt(b []byte, off int64) (int, error) {
	if len(p.at)+len(b) > p.chunk {
		p.flushAt()
	}
	if len(b) >= p.chunk {
		buf := p.buffer(len(b))
		copy(buf, b)
		p.jobs <- pipeJob{b: buf, off: off, own: true}
		return len(b), nil
	}
	if p.at == nil {
		p.at = p.buffer(p.chunk)[:0]
	}
	start := len(p.at)
	p.at = append(p.at, b...)
	p.atSegs = append(p.atSegs, pipeSeg{off: off, start: start, end: len(p.at)})
	return len(b), nil
}

// flushAt hands the pieces WriteAt gathered to the goroutine.
func (p *outPipe) flushAt() {
	if len(p.atSegs) == 0 {
		return
	}
	p.jobs <- pipeJob{b: p.at, own: true, segs: p.atSegs}
	p.at, p.atSegs = nil, nil
}

// close waits for every write and returns the first error.
func (p *outPipe) close() error {
	p.Flush()
	p.flushAt()
	close(p.jobs)
	p.err = <-p.done
	p.keep(p.cur)
	p.cur = nil
	for {
		select {
		case b := <-p.free:
			p.keep(b)
		default:
			return p.err
		}
	}
}

// stableWriter is a writer that can take bytes without copying them
// (outPipe); writeBytes writes a borrowed section's bytes through it.
type stableWriter interface {
	io.Writer
	Size() int
	buffer(n int) []byte
	writeStable(b []byte, own bool)
}

// Seek steps over offset bytes (whence io.SeekCurrent only), which a later
// WriteAt fills: writeTo steps over the composed sections so.
func (p *outPipe) Seek(offset int64, whence int) (int64, error) {
	if whence != io.SeekCurrent || offset < 0 {
		return 0, errors.New("outPipe: only forward seeks from the current offset")
	}
	p.Flush()
	p.off += offset
	return p.off, nil
}
