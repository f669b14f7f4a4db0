package fatbin

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// EmbedOptions select the variant of the C source that
// `fatbinary --embedded-fatbin=x.fatbin.c` writes.
type EmbedOptions struct {
	// Link (fatbinary -link): the fatbinary of a device link, as nvcc
	// -dlink makes it. The wrapper gets version 2 and points at
	// __cudaPrelinkedFatbins, which crt/link.stub defines.
	Link bool
	// DeviceC (fatbinary --device-c): relocatable device code. The data
	// goes to section __nv_relfatbin and the wrapper is the extern
	// __fatbinwrap<module id> that the host stub references.
	DeviceC bool
	// NoAsm (fatbinary -no-asm): a C array initialiser instead of an asm
	// block of .quad directives.
	NoAsm bool
}

// WriteEmbeddedC writes the C source that CUDA 11.8 `fatbinary -64
// --embedded-fatbin=...` writes for a fatbinary whose bytes are fatbin
// (which must be a multiple of 8 bytes long, as every container is).
// nvcc -dlink runs
//
//	fatbinary -64 --cmdline="--compile-only " -link \
//	  "--image3=kind=elf,sm=80,file=x.sm_80.cubin" --embedded-fatbin=x.fatbin.c
//
// so Write followed by WriteEmbeddedC with Link set reproduces its output.
func WriteEmbeddedC(w io.Writer, fatbin []byte, opts EmbedOptions) error {
	if len(fatbin)%8 != 0 {
		return fmt.Errorf("fatbin: embedded fatbinary size %d is not a multiple of 8", len(fatbin))
	}
	section := ".nv_fatbin"
	if opts.DeviceC {
		section = "__nv_relfatbin"
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS\n"+
		"#include \"fatbinary_section.h\"\n"+
		"#endif\n"+
		"#define __CUDAFATBINSECTION  \".nvFatBinSegment\"\n"+
		"#define __CUDAFATBINDATASECTION  \"%s\"\n", section)
	if opts.NoAsm {
		writeArray(bw, fatbin)
	} else {
		writeAsm(bw, fatbin, section)
	}

	bw.WriteString("#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
	if opts.DeviceC {
		bw.WriteString("#undef __FATIDNAME_CORE\n" +
			"#undef __FATIDNAME\n" +
			"#define __FATIDNAME_CORE(x) __fatbinwrap##x\n" +
			"#define __FATIDNAME(x) __FATIDNAME_CORE(x)\n" +
			"extern const __fatBinC_Wrapper_t __FATIDNAME(__NV_MODULE_ID)")
	} else {
		bw.WriteString("static const __fatBinC_Wrapper_t __fatDeviceText")
	}
	bw.WriteString(" __attribute__ ((aligned (8))) __attribute__ ((section (__CUDAFATBINSECTION)))= \n")
	if opts.Link {
		bw.WriteString("\t{ 0x466243b1, 2, fatbinData, (void**)__cudaPrelinkedFatbins };\n")
	} else {
		bw.WriteString("\t{ 0x466243b1, 1, fatbinData, 0 };\n")
	}
	bw.WriteString("#ifdef __cplusplus\n}\n#endif\n")
	return bw.Flush()
}

// writeAsm writes the data as an asm block: full lines of four .quad
// values joined by ",", and a last partial line (if any) joined by ", ".
func writeAsm(bw *bufio.Writer, fatbin []byte, section string) {
	fmt.Fprintf(bw, "asm(\n\".section %s, \\\"a\\\"\\n\"\n\".align 8\\n\"\n\"fatbinData:\\n\"\n", section)
	n := len(fatbin) / 8
	for i := 0; i < n; i += 4 {
		k := min(4, n-i)
		sep := ","
		if k < 4 {
			sep = ", "
		}
		bw.WriteString("\".quad ")
		for j := 0; j < k; j++ {
			if j > 0 {
				bw.WriteString(sep)
			}
			fmt.Fprintf(bw, "0x%016x", binary.LittleEndian.Uint64(fatbin[(i+j)*8:]))
		}
		bw.WriteString("\\n\"\n")
	}
	bw.WriteString("\".text\\n\");\n")
	fmt.Fprintf(bw, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"+
		"extern const unsigned long long fatbinData[%d];\n"+
		"#ifdef __cplusplus\n}\n#endif\n", n)
}

// writeArray writes the data as a C array: four values a line, each line
// but the last ending in ",", then a blank line's worth of "\n};".
func writeArray(bw *bufio.Writer, fatbin []byte) {
	bw.WriteString("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n" +
		"static const unsigned long long fatbinData[] __attribute__ ((section (__CUDAFATBINDATASECTION)))= {")
	n := len(fatbin) / 8
	for i := 0; i < n; i++ {
		fmt.Fprintf(bw, "0x%016xull", binary.LittleEndian.Uint64(fatbin[i*8:]))
		switch {
		case (i+1)%4 == 0:
			bw.WriteString(",\n")
		case i+1 < n:
			bw.WriteString(",")
		}
	}
	bw.WriteString("\n};\n\n#ifdef __cplusplus\n}\n#endif\n\n")
}
