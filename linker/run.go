package linker

import "errors"

// ErrFailed is returned by Run when the link failed; the diagnostics that
// say why have already been written to Config.Stderr.
var ErrFailed = errors.New("link failed")

// Run performs one complete link as cfg describes: it prints warnings and
// errors to cfg.Stderr, -v reports to cfg.Stdout, and writes cfg.Output only
// if the link succeeds. It returns ErrFailed when any error was reported.
func Run(cfg *Config) error {
	ctx := newContext(cfg)
	if err := Link(ctx); err != nil {
		return err
	}
	return nil
}
