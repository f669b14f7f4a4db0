package linker

import (
	"iter"
	"maps"
	"runtime"
	"sync"

	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
)

// linkContext holds all the state of one link. Nothing of a link lives in
// package-level variables: the worker runs several links in one process.
//
// Besides the link's core types (files, symbols, functions, output
// sections), every field is one pass's result that later passes read: its
// comment names the pass that writes it, and no other pass does. A pass's
// scratch stays in the pass.
type linkContext struct {
	config *Config
	diag   diagnostics

	// added are the images of every unit for the target, in command-line
	// order, archive members in member order (addInputs, its one writer).
	// chooseToolkit reads them all: the library members the link does not
	// need tell the release and are checked against it too, as nvlink
	// checks them.
	added []*inputFile
	// files are the inputs linked: added, less the library members the
	// link does not need (extractOnDemand, its one writer, which also
	// numbers them: inputFile.index).
	files []*inputFile
	// noRDC names the inputs of the command line that hold whole-program
	// device code only (nvcc -c without -rdc), which the link skips as
	// nvlink does (selectImages, its one writer); an undefined reference
	// names them, since the definition may be in one.
	noRDC []string

	// symbols holds one symbol per global name, in the order names were
	// first seen (command-line order), which fixes the output order.
	symbols []*symbol
	// symbolIDs is how many symbol ids there are (symbol.id): those of the
	// symbols resolveSymbols made, and one kept for each file's
	// placeholder (placeholderID). resolveSymbols writes it.
	symbolIDs int32

	// made are the output sections in creation order: outSection, the
	// one constructor, appends each as the passes that make sections call
	// it. outSections are the output's sections in output order
	// (assignIndices, or assignRelocatableIndices for -r, its one
	// writer): made less those left empty, with the string and symbol
	// tables; their index is the section header index. The passes before
	// assignIndices read made, those after it outSections: assignIndices
	// builds outSections in made's array and clears made (sections
	// gives either).
	made        []*outputSection
	outSections []*outputSection
	// outByName finds sections by key (see outputSection.key); once the
	// symbol table is built, only those not tied to a function and not
	// relocations (forgetFunctionSections).
	outByName nameIndex[*outputSection]

	// regsPropagated: propagateRegisters has run (dumpCallgraph's, or
	// checkMaxRegs' without the graph), its register limit errors reported.
	regsPropagated bool

	// keepEmpty: -r keeps these relocation sections, empty in an input
	// (nvcc writes some; retargetRelocations).
	keepEmpty map[*outputSection]bool
	// metadataInputs: -r, the inputs' .nv.callgraph and .nv.prototype
	// sections, and the output's section of that name their section
	// symbols name (createRelocatableMetadataSections; placeSymbols
	// places the symbols). The merge step leaves the inputs' out.
	metadataInputs map[*inputSection]*outputSection
	// deleted is, by symbol id, whether the symbol is not in the output
	// (mergeSections; see isDeleted).
	deleted []bool
	bank2   bank2Overlay // weak copies' bank-2 constants (buildFunctions); each kernel's bank-2 section, and how they share contributions (mergeSections)
	// commons are the .nv.global contributions allocateCommons made for
	// the common symbols, which placeSymbols places them in.
	commons []commonStorage
	// lostCopyLocals are the locals of weak kernel copies that did not
	// win that -preserve-relocs keeps (a losing copy's _param, a replaced
	// copy's .const_opt. constants), with the winner's section of the
	// same name they move to (keepLostCopyLocals; placeSymbols moves
	// them).
	lostCopyLocals []movedSymbol
	// commonAlign is, for a common whose chosen definition is a larger
	// common than the first of its name, the first's st_value: the
	// alignment nvlink keeps (resolveSymbols; see inputValue).
	commonAlign map[*symbol]uint64
	// weakFirstVSM is, for a weak function defined more than once, the
	// virtual architecture of its first copy, which nvlink compares every
	// later copy with (addDefinition, its one writer).
	weakFirstVSM map[*symbol]int
	// weakFirstBankLink is, for a weak kernel whose first copy a later
	// copy replaced, whether that first copy's parameter bank
	// (.nv.constant0.<k>) carries SHF_INFO_LINK: nvlink 12.x writes the
	// output's bank with the first copy's flag, the replacing copy's bytes
	// (an 11.8 input's bank has none; addDefinition, its one writer;
	// infoLink).
	weakFirstBankLink map[*symbol]bool
	// placements are, by symbol id, where each symbol lands in the output
	// (placeSymbols, its one writer; read through placed).
	placements []placement

	// allFuncs are every function definition, by function.order
	// (buildFunctions). A partial link keeps them all.
	allFuncs []*function
	// symFuncs is, by symbol id, the function record of the symbol's
	// chosen definition, nil for a symbol that names none
	// (buildFunctions, its one writer; read through funcOf and liveFunc).
	symFuncs []*function
	// funcs are the live functions, in output order (eliminateDeadCode;
	// nil in a partial link, which runs none).
	funcs []*function
	// deadCode is what dead-code elimination decided for each function
	// and why, by function.order (eliminateDeadCode; see decisionOf).
	deadCode []deadCodeRecord

	// tables are the string and symbol tables' output sections. One step
	// writes them in each kind of link: assignIndices, or
	// assignRelocatableIndices for -r.
	tables outputTables

	// The output symbol table (index 0 is the null symbol) and its first
	// global: one step writes them in each kind of link, buildSymbolTable
	// (in assignIndices), or buildRelocatableSymtab (in
	// assignRelocatableIndices) for -r, each appending through
	// outputSymbols.add. And the string table the writer emits: a log of
	// names in nvlink's creation order, which the steps that create
	// names extend (registerNames, finishNames, buildSymbolTable,
	// buildNVInfo for prototypes, the writer for the last symbols; their
	// -r counterparts); buildSymbolTable gives back its spare room, and
	// for 12.x the writer rebuilds it in nvlink's final order
	// (compactStrings).
	symtab      outputSymbols
	firstGlobal int
	strtab      stringTable
	null        nullSymbol // what nvlink leaves in the null symbol's st_value
	// dangling are the debug sections' fields whose relocation names a
	// label ptxas left undefined (applyRelocations); fillDanglingLabels
	// writes the null symbol's value into them.
	dangling []lateField
	// bankSizes are the fields of device functions' code that name
	// .nv.ptx.const0.size (applyRelocations); fillConstantBankSizes writes
	// the size of bank 3 into them.
	bankSizes []lateField

	prototypes []protoEntry // what .nv.prototype holds (createMetadataSections; buildNVInfo reads it)
	// driverRefs are the undefined symbols that relocations kept for the
	// driver name (applyRelocations).
	driverRefs symbolSet
	// referenced are the undefined symbols kept code still references,
	// which the output keeps (createMetadataSections, from driverRefs,
	// the kept functions' EXTERNS and bindlessRefs; see keepGlobal).
	referenced symbolSet
	// infoOrder: the functions of the module .nv.info, with nil for an
	// ERRBAR record (see infoOrder), in the inputs' order
	// (createMetadataSections; buildNVInfo writes them in reverse).
	infoOrder []*function
	addrTaken []*function // address-taken functions in nvlink's order (buildFunctions)
	// addrTakenByProto are the address-taken functions of each prototype,
	// in the order the inputs list them: the targets of an indirect call
	// site of that prototype (buildFunctions; buildCallEdges reads them).
	addrTakenByProto map[string][]*function
	// undefAddrTakenByProto are, the same way, the functions whose address
	// is taken that no input defines (buildFunctions): indirect call sites
	// call them too. undefAddrTaken holds them all: nvlink keeps them as
	// it keeps every address-taken function, so each is an undefined
	// reference, and --dump-callgraph marks it '&'.
	undefAddrTakenByProto map[string][]*symbol
	undefAddrTaken        symbolSet
	// bank3 is 12.x's layout of a bank 3 whose first merge passes 64 KiB
	// (rebuildConstantBank; moveRebuiltConstants moves the bytes), nil when
	// the link keeps the first merge's.
	bank3 *bank3Rebuild
	// warnedPastBank3 are the __constant__ variables warnPastBank3 has
	// warned of (relocation logs are replayed in order, one at a time).
	warnedPastBank3 []string
	// edgeCounts is, by function.order, how many call graph edges the
	// function has (buildFunctions), so that buildCallEdges makes them
	// all in one allocation.
	edgeCounts []int32
	// clones are the local functions ptxas -ewp copied into a kernel's
	// code ($kernel$function, inside the kernel's .text), which nvlink
	// keeps with the kernel (buildFunctions' markClones, its one writer;
	// nil without -ewp images). They have no function record: the
	// kernel's lists their frame sizes (function.clones).
	clones symbolSet
	// names is nvlink's creation order of names, sections and symbols, a
	// log the steps extend in nvlink's order: registerNames replays the
	// inputs' (for -r, mergeRelocatable only marks duplicate functions),
	// finishNames adds what nvlink creates after merging (with the
	// kernels' bank-2 sections, createKernelBanks); buildSymbolTable
	// gives back the spare room of its section names, and for 12.x the
	// writer compacts them (compactSectionNames).
	names nameRegistry

	sharedVars sharedVariables // the function-level shared variables (layoutShared)
	// kernelShared is each kernel's shared memory, by function.order
	// (layoutShared; see kernelMemory).
	kernelShared []kernelMemory
	// resources is what each kernel needs through its call graph, by
	// function.order (computeResources; see resourcesOf).
	resources   []resourceUse
	debugLayout debugLayout // -g's and -preserve-relocs' view of shared memory (layoutDebugInfo)
	// sectionSymbols: the symbols each input section defines, read from an
	// input's table the first time placeKernels or layoutDebugInfo asks.
	sectionSymbols sectionSymbols
	// sharedMade: the kernels kept as functions or merged as ones, in the
	// order nvlink makes their .nv.shared.<k> (layoutShared; finishNames
	// reads it).
	sharedMade madeShared

	// bindless: the bank-0 offset of each texture or surface slot, and
	// the references in the order nvlink makes its symbols for them
	// (textures, then surfaces, each from the last created to the first).
	// assignBindlessSlots writes them; applyRelocations reads them.
	bindless     map[*symbol]uint64
	bindlessRefs []*symbol
	// bindlessSlots: the kernels that have the slots, and how many of
	// each kind (assignBindlessSlots; the -v report reads them).
	bindlessSlots map[*function]slotCount

	// unlinked are the units of the inputs that hold no image to link
	// (host code only, whole-program code, no image for the target), as
	// addInputs meets them: their host-reference lists count all the same
	// (hostKernelRefs), and those with relocatable device code are
	// registered (writeHostSide).
	unlinked []unlinkedUnit
	// skippedVersion is the newest release among the cubins nvlink skips
	// (skippedCubinError): they tell the release as unlinked units do.
	skippedVersion uint32
	// refused is the input nvlink refuses first, in command-line order,
	// as it reads the inputs (refusal.go): reported once every input
	// check has run; unreadRelease is the newest release of the inputs
	// read after it, which addInputs did not add.
	refused       *refusal
	unreadRelease uint32
	// devrt is what nvlink does with each libcudadevrt unit where it comes
	// among the inputs (addInputs, through chooseDevrt): linkedFiles links
	// the taken ones, writeHostSide registers them, image or not.
	devrt map[*unit]devrtChoice

	toolkit *toolkit // the nvlink release reproduced (chooseToolkit)
	// unifiedTables are the __UFT/__UDT symbols the inputs declare
	// (collectUnifiedTables).
	unifiedTables []*symbol
	virtualSM     int // minimum virtual SM over the inputs (checkArchitectures)
	// yieldToNop: no input's virtual SM is 70 or later, so nothing
	// requires forward progress and the YIELD relocations turn ptxas's
	// YIELDs into NOPs (checkArchitectures, convertYield).
	yieldToNop    bool
	cancelled     bool           // Config.Context was cancelled
	gc            collectorState // how the process collects garbage for this link (collector.go)
	gatherFrom    int            // gatherSections gathers from this many bytes of inputs (gatherInputBytes; tests set 0)
	composeMerged bool           // placeContributions composes merged sections instead of copying them (tests clear it)
	composedFrom  int            // writeTo writes composed sections input by input from this many bytes of inputs (composedByInputBytes; tests set 0)
	composedGroup int            // the composer gathers this many bytes of members into one buffer (composedGroupBytes; tests set less)
	pipeFrom      uint64         // writeTo writes a file of this many bytes or more through an outPipe (outPipeFrom in the worker; tests set 0)
	pipeChunk     int            // the outPipe's buffer size (outPipeChunk; tests set less)
	relocByInput  int            // how many sections applyRelocations relocated input by input (byInput; tests read it)
	times         []passTime     // how long each pass took, for --time (run, runErr)
	output        []byte         // the image: the one of writeOutput, writeRelocatable (-r) or writeLTOExecutable that runs
	maps          fileMaps       // inputs mapped for this link (no object cache)
	read          *readFiles     // from readInputs to addInputs
	// virtualModules: for -arch=compute_NN, the module ids
	// --register-link-binaries lists (listVirtualModules).
	virtualModules []string
	// exitsAfter: the process exits after this link (linkOnce's last), so
	// the compilers' helpers can end as soon as the link's compiles are
	// done (releaseCompiler).
	exitsAfter bool
	// ptxJobs are the PTX images compiled for this link: compilePTXImages
	// writes them, addInputs takes their cubins (ptxcompile.go).
	ptxJobs map[*ptxImage]*ptxJob
	// ptxFailed: the compiler refused a PTX image, and addInputs reads
	// no input after it, as nvlink stops there (compiledObject).
	ptxFailed bool
	// newerCompilerWarned: newerCompilerWarning was given.
	newerCompilerWarned bool
	// afterNonFatal: the link relocates after non-fatal errors
	// (relocateAfterNonFatal), which reported the undefined symbols.
	afterNonFatal bool
	// cnpPatched are the device functions that get NEED_CNP_PATCH
	// (buildNVInfo, cnpPatchedFunctions).
	cnpPatched map[*function]bool
	// lto is the state of link-time optimization (lto.go).
	lto ltoState
}

// nullSymbol is what nvlink leaves in the null symbol's st_value, in
// parts each written by one pass; the writer reads value.
type nullSymbol struct {
	// weakConstants is the offset at which nvlink appended the last
	// losing weak copy's bank-2 constants to the kept copy's, and
	// lostConstants every such block (buildFunctions).
	weakConstants uint64
	lostConstants set[*inputSection]
	// lostPlaced is where the kernels' banks hold the block of
	// lostConstants that overlayConstant2 places last, when it lays them
	// out together; it replaces weakConstants when placed is set: nvlink
	// leaves the offset in the kernels' bank, past a kernel's own
	// constants (0x44 for a block appended at 0x14 after 0x30 bytes of
	// the kernel's).
	lostPlaced uint64
	placed     bool
	// lastConstant is where nvlink's second merge of the __constant__
	// data after pruning placed the last contribution it counts and did
	// not fold (remergeConstants); it replaces the weak copies' offset
	// when counted is set. remerged says that merge ran; when it counted
	// no contribution (every one appended, remergeKindOf), nvlink leaves
	// the weak copies' offset (user30's curand program: 0x90 after a
	// 72-byte table and a 1,112-byte one).
	lastConstant uint64
	remerged     bool
	counted      bool
	// ewpReserves is the sum of sm_90's shared-memory reserves of the
	// kernels of -ewp images that have shared memory (layoutShared).
	ewpReserves uint64
}

// value is the null symbol's st_value: 0 unless a part is set.
func (n *nullSymbol) value() uint64 {
	v := n.weakConstants
	if n.placed {
		v = n.lostPlaced
	}
	if n.counted {
		v = n.lastConstant
	}
	return v + n.ewpReserves
}

// collectorState is how the process collects garbage for this link:
// tuneCollector writes it once the inputs are added, collectGarbage reads
// it. It never changes the output.
type collectorState struct {
	early bool // collect garbage between passes (collectGarbage)
	// off: the collector does not run (a small link, see tuneCollector),
	// so what is let go is never reused: lists may as well be made at the
	// size they will reach, and a copy that gives back room saves nothing.
	off bool
	// readingLimit: collectWhileReading set a memory limit (the collector
	// was off while the inputs were read).
	readingLimit bool
}

func newContext(cfg *Config) *linkContext {
	if cfg.Parallelism <= 0 {
		cfg.Parallelism = runtime.GOMAXPROCS(0)
	}
	return &linkContext{
		config: cfg,
		diag:   diagnostics{w: cfg.Stderr, noWarn: cfg.NoWarn, werror: cfg.Werror, suffix: reportArch(cfg)},
		// chooseToolkit decides from the inputs; until then (and for a
		// link that stops before), --cuda-version's or 11.8's.
		toolkit:       toolkitFor(cfg.CUDAVersion),
		gatherFrom:    gatherInputBytes,
		composeMerged: true,
		composedFrom:  composedByInputBytes,
		composedGroup: composedGroupBytes,
		pipeFrom:      pipeFrom(cfg),
		pipeChunk:     outPipeChunk,
	}
}

// Object is an input cubin as parsed: the ELF file and the per-file
// records the passes need, decoded once. It is never modified after
// parsing, so the persistent worker can share it between links.
type Object struct {
	Name string // as the user wrote it; archive members as lib.a(member)
	// ELF is the cubin; nil for a host object without relocatable device
	// code, kept so that its unit can be reported.
	ELF *cubin.File
	// unit is the logical input the image belongs to (see extract.go).
	unit *unit
	// version is, for a unit with no image to link (ELF nil), the newest
	// release its other images were written by (imageVersion).
	version uint32
	// ltoIR marks the place of a unit whose IR went to libnvvm (ELF nil):
	// nothing of it is linked, but --register-link-binaries names it
	// there (selectImages, writeHostSide).
	ltoIR bool
	// namedO marks a relocatable cubin named .o, which nvlink 12.x links
	// as a cubin and 11.8 as a host object with no device code: addInputs
	// turns it into the latter for a link reproducing 11.8.
	namedO bool
	// cubinAsHost marks the host object nvlink makes of a relocatable
	// cubin named otherwise than .cubin or .o (a.obj, a.bin): its device
	// code is not linked, and cudalink says so (addInputs).
	cubinAsHost bool
	// deferred is the fatbinary image of which only the ELF header was
	// read (deferredImage): ELF holds that header and nothing else until
	// loadDeferred reads the rest.
	deferred *fatbin.Entry

	// Call graph records from .nv.callgraph, in file symbol indices.
	calls        [][2]uint32
	addrTaken    [][2]uint32
	indirect     [][2]uint32
	refs         [][2]uint32       // group -4 (CUDA 12): (function, function whose address it takes)
	protoList    []prototype       // .nv.prototype entries in file order
	protoStrings map[uint32]string // strtab offset -> string, for callgraph prototypes
	// funcDescs are the symbol indices that function descriptor
	// relocations name (a kernel launched from device code), sorted, each
	// once: markLaunched and linkCallGraph read them in every link, and
	// finding them is a walk over every relocation of the file.
	funcDescs []uint32

	// The module-wide .nv.info sections, checked (see globalInfo).
	// Per-function .nv.info sections are decoded when read
	// (appendFunctionInfo).
	info []*cubin.Section
	// The records of those sections that name a symbol, and the
	// EIATTR_GEN_ERRBAR_AT_EXIT markers, in file order (checkGlobalInfo).
	globalRecs []globalRec
}

// reportArch is the -report-arch suffix of messages.
func reportArch(cfg *Config) string {
	if !cfg.ReportArch {
		return ""
	}
	return " (target: " + cfg.archName() + ")"
}

// unlinkedUnit is a unit of the inputs nothing is linked from, with its
// place among the units loaded (inputFile.seq).
type unlinkedUnit struct {
	*unit
	seq int
	// version: the newest release of the unit's images (imageVersion).
	version uint32
}

// inputFile is one object taken into a link: the shared parsed Object and
// this link's view of it.
type inputFile struct {
	*Object
	// index is the position in linkContext.files, the command-line order
	// (extractOnDemand, its one writer).
	index int
	// seq is the position among every unit loaded, linked or not
	// (linkContext.unlinked), in command-line order.
	seq int
	// unit is this link's view of the object's unit; it shadows
	// Object.unit so per-link marks never touch a shared parse.
	unit *unit

	// Sections parallels ELF.Sections.
	sections []*inputSection
	// syms maps each ELF symbol index to the link's symbol: the global
	// symbol for global and weak names, a file-local symbol otherwise.
	syms []*symbol

	// lost: by section index, the ranges of weak data that lost
	// resolution (see lostRanges), made once (lostOnce).
	lost     map[int][][2]uint64
	lostOnce sync.Once

	// weakSkipped: the code sections of weak function copies that lost
	// to a copy kept before them when resolution met them.
	weakSkipped map[uint32]bool

	// skippedData: the symbol indices of weak data definitions that lost
	// to a definition met before them (see lostStorage).
	skippedData map[uint32]bool

	// placeholder is the unnamed local function nvlink creates for the
	// file's first new undefined function (see addPlaceholder); nil if none.
	placeholder *symbol
}

// defines says whether sym, the link's symbol for the file's symbol j,
// is defined by that entry: a local of the file, or the global whose
// chosen definition it is. A file may name a global twice; only one entry
// defines it.
func (file *inputFile) defines(sym *symbol, j int) bool {
	return sym != nil && sym.file == file && (sym.local || int(sym.esymIndex) == j)
}

// inputSection is one section of an input file: a zero-copy window into the
// file, and the relocations that patch it (relocs). A large link has tens
// of thousands, allocated in one slab per file.
type inputSection struct {
	file *inputFile
	sec  *cubin.Section

	// out is the output section the contribution joins, nil for a
	// section the output leaves out: the merge step is its one writer
	// (mergeSections with foldConstant2, or mergeRelocatable for -r).
	// outOff is where it lands
	// in out (placeContributions). A symbol can land in another output
	// section than its input section's (placeSymbols records it in the
	// symbol's placement: see movedSymbol, debugLayout.moved).
	out    *outputSection
	outOff uint64

	// fn is the function this section belongs to (.text.f, .nv.info.f,
	// .nv.constant0.f, ...), nil for module-wide sections.
	fn *function
}

// name returns the section's name.
func (isec *inputSection) name() string { return isec.sec.Name }

// relocs returns the relocations that patch the section, from its .rel and
// .rela sections in file order; none for a section the linker made.
func (isec *inputSection) relocs() iter.Seq[cubin.Reloc] {
	return isec.file.ELF.SectionRelocs(isec.inputIndex())
}

// hasRelocs says whether any relocation patches the section.
func (isec *inputSection) hasRelocs() bool {
	return isec.file.ELF.HasRelocs(isec.inputIndex())
}

// inputIndex is the section's index in its file, -1 for a section the
// linker made.
func (isec *inputSection) inputIndex() int {
	ef := isec.file.ELF
	if i := int(isec.sec.Index); i < len(ef.Sections) && ef.Sections[i] == isec.sec {
		return i
	}
	return -1
}

// symbol is one symbol of the link: a global name shared by all files, or a
// local symbol of one file.
type symbol struct {
	name string
	// size: the chosen definition's (resolveSymbols, its one writer).
	size uint64

	// file and section of the chosen definition (resolveSymbols, their
	// one writer); section is its input section, nil when the symbol is
	// undefined, common or absolute. Its st_value is inputValue's. Where
	// the symbol lands in the output is placeSymbols' record (placed).
	file    *inputFile
	section *inputSection

	// A symbol is made for every name of every input, so its size
	// matters: indices and counters are 32 bits wide, as ELF's symbol and
	// section indices are, and the small fields are packed together.
	shndx     uint32 // the defining section's index in file, or a special SHN_*
	esymIndex int32  // index of the chosen definition (of a local: its entry) in file's symbol table
	// id numbers the symbols of a link densely from 0, so that a pass can
	// keep what it computes of them in a table of its own indexed by id
	// (nameRegistry.created, outputSymbols.index, linkContext.deleted,
	// linkContext.placements).
	// resolveSymbols, which makes them, numbers them (see symbolIDs).
	id int32

	info  uint8 // binding and type of the chosen definition (or reference)
	other uint8
	// firstBind is the binding where the name was first seen; nvlink keeps
	// names first seen weak with the locals.
	firstBind uint8
	local     bool
	// What follows from the chosen definition is a method (defRank,
	// isPlaceholder): the record stays at 56 bytes.
}

// defRank is the rank of the symbol's chosen definition (see rank),
// rankUndefined for a symbol no input defines and for a local. shndx and
// info are the chosen definition's (a larger common that replaces a
// first one is common too).
func (sym *symbol) defRank() int {
	switch {
	case sym.file == nil || sym.local || sym.shndx == cubin.SHN_UNDEF:
		return rankUndefined
	case sym.shndx == cubin.SHN_COMMON:
		return rankCommon
	case sym.bind() == cubin.STB_WEAK:
		return rankWeak
	}
	return rankStrong
}

// isPlaceholder says whether sym is the unnamed local function
// addPlaceholder made for its file.
func (sym *symbol) isPlaceholder() bool { return sym.file != nil && sym.file.placeholder == sym }

// bind is the symbol's binding, STB_*.
func (sym *symbol) bind() uint8 { return sym.info >> 4 }

// typ is the symbol's type, STT_*.
func (sym *symbol) typ() uint8 { return sym.info & 0xf }

// defined says whether an input defines the symbol.
func (sym *symbol) defined() bool { return sym.file != nil && sym.shndx != cubin.SHN_UNDEF }

// isFunc says whether the symbol is a function.
func (sym *symbol) isFunc() bool { return sym.typ() == cubin.STT_FUNC }

// cloneFrame is the frame size a -ewp image gives a function it copied
// into a kernel's code.
type cloneFrame struct {
	sym   *symbol
	frame uint32
}

// function is one live device function (kernel or not) with the sections
// that travel with it.
type function struct {
	sym      *symbol
	text     *inputSection
	sections []*inputSection // .nv.info.f, .nv.constant0.f, .nv.constant2.f, .nv.shared.f, ...

	callees []*function
	// callers are the functions that call it (directly or through a
	// materialised indirect call), in the order the call graph first named
	// each (linkCallGraph).
	callers []*function
	// maxRegs is the kernel's EIATTR_MAXREG_COUNT (-maxrregcount, or the
	// limit __launch_bounds__ gives), 0 without one: nothing it calls may
	// use more (checkMaxRegs).
	maxRegs int
	// regs and barriers are the function's own register and barrier
	// counts, from its input (buildFunctions); what a kernel needs
	// through its call graph is computeResources' (resourcesOf).
	regs      int
	barriers  int
	frameSize uint32
	// clones are the local functions a -ewp image places inside this
	// kernel's code, with their EIATTR_FRAME_SIZE, in the order of the
	// input's records.
	clones   []cloneFrame
	crsStack uint32 // EIATTR_CRS_STACK_SIZE of the function itself (sm_5x/6x)
	// stackUnknownIn: its input's EIATTR_MIN_STACK_SIZE is 0xffffffff
	// (an -ewp kernel whose copied functions recurse; see
	// resourceUse.stackUnknownIn).
	stackUnknownIn bool
	// mbarriers is EIATTR_NUM_MBARRIERS of the function itself: the
	// shared-memory barriers it initialises (sm_80 and up); hasMbarriers
	// says it has the record, which ptxas also writes with 0 (a
	// noinline helper that only arrives on a barrier).
	mbarriers    uint32
	hasMbarriers bool
	// sparseMask is EIATTR_SPARSE_MMA_MASK of the function itself (sm_90):
	// a bit for each sparse mma variant its own code uses (HMMA.SP 0x20,
	// IMMA.SP, ...), 0 when it uses none or has no record.
	sparseMask uint16
	proto      string // prototype of an address-taken function
	// indirectProtos are the prototypes of its indirect call sites, last
	// site first.
	indirectProtos []string
	// externs are the undefined functions it calls: those its EXTERNS
	// record lists, in that order, then any other the call graph names.
	externs []*symbol
	// lostExterns are the undefined functions a weak copy that a later
	// one replaced called: the output keeps them (its call graph names
	// them), but no EXTERNS record does.
	lostExterns []*symbol
	// edges are the call graph's callees of the function (defined or
	// not, direct or materialised indirect) in nvlink's order: a callee
	// that two copies of a weak function call (one replacing the other)
	// is there twice, as in nvlink's call graph (buildCallEdges, its one
	// writer, once registerNames knows nvlink's symbol order; nil in a
	// partial link, which reads the inputs' records).
	edges []*symbol
	// dumpIndirect are the callees materialised from indirect call sites
	// that 12.x does not write into .nv.callgraph (toolkit.indirectEdges off) but
	// --dump-callgraph lists all the same, after edges, as 11.8 lists them:
	// each site's in symbol creation order (buildCallEdges, its one writer).
	dumpIndirect []*symbol
	// refs are the functions it references by address, from CUDA 12's
	// group -4 of .nv.callgraph (targets of its indirect calls, kernels it
	// launches), in the order recorded.
	refs []*symbol
	// infoAt is where the function's own first record of each attribute
	// a kernel takes from its call tree (treeAttrs) sits among the records
	// of its .nv.info, plus 1 (0: it has none). buildFunctions notes it as
	// it decodes them, so that firstInTree need not decode them again.
	infoAt [len(treeAttrs)]int32

	order int // index in linkContext.allFuncs: creation order
	// listKey is the function's place in nvlink's list of functions:
	// 2*order<<32, but for a weak function whose first copy with bank-2
	// constants kept when met (in an earlier file) a later file's copy
	// replaced, which keeps that copy's place, between the functions made
	// before and after it was met ((2*n-1)<<32 with n functions made
	// then), plus how many such copies were met before it (weakCopies.firstAt).
	// Bank 2's overlay orders by it (sortLastFunctionFirst).
	listKey int

	// The flags, together so that a large link's thousands of Functions
	// carry no padding between them.
	addrTaken bool
	// descOnly: the address is taken only by a function descriptor
	// relocation; nvlink lists it with prototype offset 0.
	descOnly bool
	// ctaidZ: its .nv.info holds CTAIDZ_USED (the kernel reads
	// blockIdx.z).
	ctaidZ bool
	// reservedSmem: its .nv.info holds RESERVED_SMEM_USED (CUDA 12).
	reservedSmem bool
	// ctaidRead: its .nv.info holds S2RCTAID_INSTR_OFFSETS (its code
	// reads blockIdx); see cnpPatched.
	ctaidRead bool
}

// outputSection is one section of the output file. A large link has tens
// of thousands, most of them a function's with one member: what only
// relocation sections need is in rel, what few others need in ext,
// sh_entsize follows from the type (see entsize), and the record is 128
// bytes.
type outputSection struct {
	name      string
	flags     uint64
	addralign uint64
	size      uint64
	data      []byte // nil for sections without file contents; see sectionbytes.go
	members   []*inputSection
	// For sections tied to a function (.text.f, .nv.info.f, ...).
	fn *function
	// index is the creation order, then the section header index (see
	// sortOutputSections; ELF's are 32-bit). sh_link and sh_info are the
	// writer's (see linkInfo).
	index    int32
	typ      uint32
	symIndex uint32 // index of the section symbol, 0 if none (outputSymbols.addSection, its one writer)

	// fixedOffsets: members sit at linkContext.bank2.fixedOff (bank 2 overlays), with
	// zeros between them.
	fixedOffsets bool
	synthetic    bool // made by the linker, with no input counterpart
	// borrowed: data is the input section's own bytes, shared with the
	// parsed (possibly cached, possibly mapped read-only) input. Writes to
	// it wait in patches until the section is written out (sectionbytes.go).
	borrowed bool
	// twinned: some contributions share a member's bytes instead of being
	// members (bank 2, see foldConstant2 and bank2Overlay).
	twinned bool

	rel *relocList  // for relocation sections (made with them by outSection)
	ext *sectionExt // nil until a rarely used field is set (see more)
}

// relocList is what a relocation section holds: the section it patches
// and the relocations to write (as .rela entries unless the section is
// SHT_REL: see outputSection.rela). 32 bytes, for the tens of thousands of
// a large link.
type relocList struct {
	target *outputSection
	relocs []outReloc
}

// rela says whether a relocation section's entries have addends.
func (osec *outputSection) rela() bool { return osec.typ != cubin.SHT_REL }

// sectionExt holds the fields of an output section that few sections set
// (mostly those that relocations patch, a function's code above all).
type sectionExt struct {
	patches []patch // pending writes to borrowed bytes (see outputSection.patch)
	// The .rel and .rela sections of this section, once relocFor made or
	// found them.
	relOut, relaOut *outputSection
	// key tells apart sections of the same name (see nameRegistry.funcKey);
	// empty when it is the name.
	key string
	// runs: data was dropped, to be rebuilt from the members and these
	// runs (see changedRuns).
	runs *changedRuns
	// composed: data is nil, and the bytes are the members' own, at their
	// offsets, with the patches over them (see compose).
	composed bool
	// patchesUnsorted: some patch was made at a lower offset than the one
	// before it (see applyPatchesIn).
	patchesUnsorted bool
	// membersUnordered: for a composed section, some patch was made in a
	// member before the one the patch before it was made in (memberAt);
	// lastMember is the member of the last patch (see memberPatchRange).
	membersUnordered bool
	lastMember       int
	// patched marks, for a composed section, every fieldWindow-byte block
	// a patch's field may touch (see patchNear).
	patched []uint64
}

// more returns osec's side record, making it on first use.
func (osec *outputSection) more() *sectionExt {
	if osec.ext == nil {
		osec.ext = &sectionExt{}
	}
	return osec.ext
}

// key tells apart sections of the same name (see nameRegistry.funcKey):
// it is the name but for the sections of a duplicate local function.
func (osec *outputSection) key() string {
	if osec.ext != nil && osec.ext.key != "" {
		return osec.ext.key
	}
	return osec.name
}

// entsize is the section's sh_entsize, which its type fixes: the size of a
// relocation, symbol or .symtab_shndx entry, and 8 for the call graph,
// prototype and relocation-action tables (nvlink's). A partial link also
// keeps a contribution's own (writeRelocatable).
func (osec *outputSection) entsize() uint64 {
	switch {
	case osec.rel != nil && osec.rela():
		return 24
	case osec.rel != nil:
		return 16
	}
	switch osec.typ {
	case cubin.SHT_SYMTAB:
		return 24
	case cubin.SHT_SYMTAB_SHNDX:
		return 4
	case cubin.SHT_CUDA_CALLGRAPH, cubin.SHT_CUDA_PROTOTYPE, cubin.SHT_CUDA_RELOCINFO:
		return 8
	}
	return 0
}

// outReloc is a relocation kept for the driver, in output terms. A large
// link keeps some hundred thousand: the offset is 32 bits, which keeps the
// record at 24 bytes (relocate and retarget refuse a place past 4 GiB).
type outReloc struct {
	sym    *symbol
	addend int64
	offset uint32
	typ    cubin.RelocType
}

// A set holds each of its members once; the nil set is empty.
type set[T comparable] map[T]struct{}

// symbolSet is a set of symbols, functionSet one of functions.
type (
	symbolSet   = set[*symbol]
	functionSet = set[*function]
)

// add puts x in the set, making the set on first use.
func (s *set[T]) add(x T) {
	if *s == nil {
		*s = set[T]{}
	}
	(*s)[x] = struct{}{}
}

// has says whether x is in the set. An empty set answers without a
// lookup: most links' sets of exceptions (linkContext.clones) are.
func (s set[T]) has(x T) bool {
	if len(s) == 0 {
		return false
	}
	_, ok := s[x]
	return ok
}

// clone returns a copy of the set (nil for an empty one).
func (s set[T]) clone() set[T] {
	if len(s) == 0 {
		return nil
	}
	return maps.Clone(s)
}
