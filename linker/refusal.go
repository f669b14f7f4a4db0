package linker

// nvlink reads its inputs one at a time, in command-line order, and stops
// at the first it refuses, whatever the reason: a file it cannot open or
// read, an ELF file of another machine named .cubin, a cubin of another
// SM, one newer than the toolkit, an sm_90 cubin of 11.8, an -ewp image of
// another release, an input with device code after a libcudadevrt it
// skipped. Only then does it merge them (duplicate definitions, the -ewp
// mix warnings). Measured with nvlink 11.8, 12.4 and 12.5 on links broken
// two and three times over (b.cubin of sm_75 before an 11.8 -ewp ewp.o in
// a 12.4 link: the arch error for b.cubin, then nothing; the other order:
// the -ewp error alone). cudalink checks these in several passes (the
// reads in addInputs, the releases in chooseToolkit, the architectures in
// checkArchitectures), which record each refusal with its input's place;
// reportRefusal reports the first, before anything is merged.

// refusalStep orders the checks of one input, as nvlink makes them: a
// file that cannot be read has no image to check; of an sm_75 cubin of
// CUDA 12.5 in a 12.4 link, nvlink names the architecture; of an sm_86
// cubin after a libcudadevrt it skipped, the architecture too.
type refusalStep uint8

const (
	refuseRead       refusalStep = iota // the file could not be read
	refuseArch                          // its SM does not fit -arch
	refuseRelease                       // newer than the toolkit, old sm_90 code, an -ewp image of another release
	refuseAfterDevrt                    // device code after a libcudadevrt nvlink skipped (unexpectedAfterDevrt)
)

// refusal is an input nvlink stops at: its place among the link's
// objects (the seq of its first image, inputFile.seq), the check, and the
// error to report.
type refusal struct {
	seq  int
	step refusalStep
	err  error
}

// refuse records that nvlink stops at the input at seq (the step of its
// checks that fails), unless an input before it, or an earlier step of
// the same input, was refused already. The passes that call it run on the
// link's goroutine.
func (ctx *linkContext) refuse(seq int, step refusalStep, err error) {
	if r := ctx.refused; r != nil && (r.seq < seq || r.seq == seq && r.step <= step) {
		return
	}
	ctx.refused = &refusal{seq, step, err}
}

// reportRefusal reports the first input nvlink refuses, if any. An error
// reported before it is one of the command line (an option the release
// does not know), which nvlink gives before it reads an input: the
// refusal is then not reported.
func reportRefusal(ctx *linkContext) {
	if r := ctx.refused; r != nil && !ctx.failed() {
		ctx.report(r.err)
	}
}
