package linker

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cudalink/cudalink/linker/fatbin"
)

// An archImage is the linked cubin for one architecture.
type archImage struct {
	sm       int
	specific bool // marked arch-specific in the fatbinary (FatbinArchSpecific)
	data     []byte
}

// runArchs links each of cfg.Archs in turn with the same inputs, writing
// each cubin beside Output (".sm_NN" before its extension) when Output is
// set, and returns the images for the fatbinary outputs. --why-live's
// answers come under a line naming each architecture, and the --map file
// holds every architecture's map, in -arch order (each says which it is).
func runArchs(cfg *Config) ([]archImage, error) {
	var images []archImage
	maps := cfg.mapOut // --map=-: Run prints it
	if maps == nil {
		maps = &bytes.Buffer{}
	}
	for i, target := range cfg.Archs {
		one := *cfg
		one.archLabel, one.mapOut = target.String(), maps
		if maps.Len() > 0 {
			maps.WriteByte('\n') // a blank line between two architectures' maps
		}
		one.Arch, one.Archs = target.SM, nil
		// nvcc -dlink links an sm_90a target with nvlink --arch=sm_90
		// and has fatbinary mark its image.
		one.ArchSpecific, one.FatbinArchSpecific = false, target.Specific
		if i > 0 {
			one.XptxasRedefined = nil // a command-line warning: the first link gave it
		}
		one.Fatbin, one.EmbeddedFatbin = "", ""
		one.forFatbin = cfg.Fatbin != "" || cfg.EmbeddedFatbin != ""
		if cfg.Output != "" {
			one.Output = archOutput(cfg.Output, target)
		}
		img, err := linkOnce(&one, false)
		if err != nil {
			return nil, err
		}
		images = append(images, archImage{target.SM, target.Specific, img})
	}
	if cfg.MapFile != "" && cfg.mapOut == nil {
		if err := cfg.writeFileAtomic(cfg.MapFile, maps.Bytes()); err != nil {
			fmt.Fprintf(cfg.Stderr, "cudalink: error: %s\n", &linkError{file: cfg.MapFile, msg: "cannot write link map: " + err.Error()})
			return nil, ErrFailed
		}
	}
	return images, nil
}

// archOutput is the cubin path for one architecture of a multi-arch link:
// out.cubin becomes out.sm_80.cubin (out.sm_90a.cubin for sm_90a).
func archOutput(out string, target ArchTarget) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "." + target.String() + ext
}

// writeFatbins writes --fatbin and --embedded-fatbin: the container
// `fatbinary -64 --create` makes of the cubins, and the C source
// `fatbinary -64 -link --embedded-fatbin` makes for nvcc -dlink's
// link.stub (both byte-identical to NVIDIA's tool). Diagnostics go to
// cfg.Stderr, as the link's own do.
func writeFatbins(cfg *Config, images []archImage) error {
	if cfg.Fatbin == "" && cfg.EmbeddedFatbin == "" {
		return nil
	}
	fail := func(path string, err error) error {
		fmt.Fprintf(cfg.Stderr, "cudalink: error: %s\n", &linkError{file: path, msg: err.Error()})
		return ErrFailed
	}
	var fb bytes.Buffer
	var list []fatbin.Image
	for _, img := range images {
		// A -g link's images are marked as debug compiles, as nvcc -G
		// -dlink has fatbinary -g mark them.
		// Its e_version is the release of the nvlink reproduced; the
		// fatbinary of that release writes the container.
		var tk *toolkit
		if len(img.data) >= 24 {
			tk = toolkitFor(le.Uint32(img.data[20:]))
		}
		list = append(list, fatbin.Image{Kind: fatbin.KindELF, SM: img.sm, Data: img.data, Debug: cfg.Debug,
			HeaderPad: tk != nil && tk.fatbinHeaderPad, ArchSpecific: img.specific})
	}
	if err := fatbin.Write(&fb, list); err != nil {
		return fail(cfg.Fatbin, fmt.Errorf("cannot make the fatbinary: %w", err))
	}
	if cfg.Fatbin != "" {
		if err := cfg.writeFileAtomic(cfg.Fatbin, fb.Bytes()); err != nil {
			return fail(cfg.Fatbin, fmt.Errorf("cannot write fatbinary: %w", err))
		}
	}
	if cfg.EmbeddedFatbin != "" {
		var c bytes.Buffer
		if err := fatbin.WriteEmbeddedC(&c, fb.Bytes(), fatbin.EmbedOptions{Link: true}); err != nil {
			return fail(cfg.EmbeddedFatbin, err)
		}
		if err := cfg.writeFileAtomic(cfg.EmbeddedFatbin, c.Bytes()); err != nil {
			return fail(cfg.EmbeddedFatbin, fmt.Errorf("cannot write embedded fatbinary: %w", err))
		}
	}
	return nil
}

// errNoImage guards against a link that "succeeded" without an image.
var errNoImage = errors.New("the link produced no image")
