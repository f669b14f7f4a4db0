package linker

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrFailed is returned by Run when the link failed; the diagnostics that
// say why have already been written to Config.Stderr.
var ErrFailed = errors.New("link failed")

// errCancelled is returned by Run when Config.Context was cancelled; no
// output was written.
var errCancelled = errors.New("link cancelled")

// Run performs one complete link as cfg describes: it prints warnings and
// errors to cfg.Stderr, -v reports to cfg.Stdout, and writes cfg.Output only
// if the link succeeds. It returns ErrFailed when any error was reported.
//
// A link that fails after it wrote some of its outputs (the cubin of one
// architecture of several, the cubin before --fatbin, --map or
// --register-link-binaries could not be written) removes them, so no
// failure leaves an output behind. A panic in the link (a bug) removes
// them too and goes on to the caller, on the calling goroutine also when
// it happened in one of the link's own; linker/cli turns it into an
// InternalError.
func Run(cfg *Config) (err error) {
	c := *cfg
	cfg = &c
	cfg.written = &writtenFiles{}
	defer func() {
		if v := recover(); v != nil {
			cfg.written.removeAll()
			panic(v)
		}
		if err != nil {
			cfg.written.removeAll()
		}
	}()
	if cfg.Relocatable {
		if err := CheckRelocatable(cfg); err != nil {
			return err
		}
	}
	// --map=- goes to standard output once every output is written, so a
	// link that fails prints no map, as it leaves no map file.
	var mapStdout *bytes.Buffer
	if cfg.MapFile == "-" {
		mapStdout = &bytes.Buffer{}
		cfg.mapOut = mapStdout
	}
	var images []archImage
	if len(cfg.Archs) > 1 {
		var err error
		if images, err = runArchs(cfg); err != nil {
			return err
		}
	} else {
		img, err := linkOnce(cfg, cfg.OneShot)
		if err != nil {
			return err
		}
		if !cfg.Virtual { // a virtual target's fatbinary holds no image
			images = []archImage{{cfg.Arch, cfg.FatbinArchSpecific, img}}
		}
	}
	if err := writeFatbins(cfg, images); err != nil {
		return err
	}
	if mapStdout != nil {
		w := cfg.TimeStdout
		if w == nil {
			w = cfg.Stdout
		}
		if _, err := w.Write(mapStdout.Bytes()); err != nil {
			return fmt.Errorf("cannot write link map on standard output: %w", err)
		}
	}
	return nil
}

// linkOnce links for cfg.Arch and returns the image it wrote (or, with no
// Output, would have written); the image is nil when nothing needs it in
// memory (see needImage). last says that the process exits after this
// link: its inputs' mappings are left to the exit then, one teardown of
// the address space, rather than unmapped one by one (a system call and a
// TLB shootdown on every CPU the process ran on, for each input).
func linkOnce(cfg *Config, last bool) ([]byte, error) {
	ctx := newContext(cfg)
	ctx.maps.lastLink = last || cfg.lastLinkReads()
	ctx.exitsAfter = last
	if !last {
		defer ctx.maps.unmapAll()
	}
	err := link(ctx)
	if cfg.TimeFile != "" {
		if terr := writeTimes(ctx); terr != nil && err == nil {
			return nil, terr
		}
	}
	if err != nil {
		if ctx.cancelled {
			return nil, errCancelled
		}
		if errors.Is(err, ErrFailed) {
			return nil, &failure{status: ctx.exitStatus()}
		}
		return nil, err
	}
	if cfg.needImage() && ctx.output == nil && !cfg.Virtual {
		return nil, errNoImage
	}
	return ctx.output, nil
}

// failure is the ErrFailed a link returns, with nvlink's exit status:
// 255 when every error was an undefined reference (nvlink's "error"
// class), 1 otherwise (its "fatal" class).
type failure struct{ status int }

func (f *failure) Error() string        { return ErrFailed.Error() }
func (f *failure) Is(target error) bool { return target == ErrFailed }
func (f *failure) ExitStatus() int      { return f.status }

// needImage says whether the output image must be kept in memory: for the
// fatbinary outputs, or when there is no output file to stream it to.
func (cfg *Config) needImage() bool {
	return cfg.Output == "" || cfg.Fatbin != "" || cfg.EmbeddedFatbin != "" || cfg.forFatbin
}
