package normalize

import "fmt"

// The tables in this file are written independently of the linker's own
// tables (a test oracle must not share the linker's bugs). Sources:
// /work/shared/notes/cuda-formats.md §2 (section types), §3.1 (R_CUDA
// numbering, identical to LLVM's CUDA.def) and §4.2 (EIATTR ids).

// relocNames maps an R_CUDA relocation type to its name. 0..101 are the
// types CUDA 11.8 knows by name; 102..113 are the CUDA >= 12 "unified" types
// (same numbering as LLVM's CUDA.def).
var relocNames = [...]string{
	0:   "R_CUDA_NONE",
	1:   "R_CUDA_32",
	2:   "R_CUDA_64",
	3:   "R_CUDA_G32",
	4:   "R_CUDA_G64",
	5:   "R_CUDA_ABS32_26",
	6:   "R_CUDA_TEX_HEADER_INDEX",
	7:   "R_CUDA_SAMP_HEADER_INDEX",
	8:   "R_CUDA_SURF_HW_DESC",
	9:   "R_CUDA_SURF_HW_SW_DESC",
	10:  "R_CUDA_ABS32_LO_26",
	11:  "R_CUDA_ABS32_HI_26",
	12:  "R_CUDA_ABS32_23",
	13:  "R_CUDA_ABS32_LO_23",
	14:  "R_CUDA_ABS32_HI_23",
	15:  "R_CUDA_ABS24_26",
	16:  "R_CUDA_ABS24_23",
	17:  "R_CUDA_ABS16_26",
	18:  "R_CUDA_ABS16_23",
	19:  "R_CUDA_TEX_SLOT",
	20:  "R_CUDA_SAMP_SLOT",
	21:  "R_CUDA_SURF_SLOT",
	22:  "R_CUDA_TEX_BINDLESSOFF13_32",
	23:  "R_CUDA_TEX_BINDLESSOFF13_47",
	24:  "R_CUDA_CONST_FIELD19_28",
	25:  "R_CUDA_CONST_FIELD19_23",
	26:  "R_CUDA_TEX_SLOT9_49",
	27:  "R_CUDA_6_31",
	28:  "R_CUDA_2_47",
	29:  "R_CUDA_TEX_BINDLESSOFF13_41",
	30:  "R_CUDA_TEX_BINDLESSOFF13_45",
	31:  "R_CUDA_FUNC_DESC32_23",
	32:  "R_CUDA_FUNC_DESC32_LO_23",
	33:  "R_CUDA_FUNC_DESC32_HI_23",
	34:  "R_CUDA_FUNC_DESC_32",
	35:  "R_CUDA_FUNC_DESC_64",
	36:  "R_CUDA_CONST_FIELD21_26",
	37:  "R_CUDA_QUERY_DESC21_37",
	38:  "R_CUDA_CONST_FIELD19_26",
	39:  "R_CUDA_CONST_FIELD21_23",
	40:  "R_CUDA_PCREL_IMM24_26",
	41:  "R_CUDA_PCREL_IMM24_23",
	42:  "R_CUDA_ABS32_20",
	43:  "R_CUDA_ABS32_LO_20",
	44:  "R_CUDA_ABS32_HI_20",
	45:  "R_CUDA_ABS24_20",
	46:  "R_CUDA_ABS16_20",
	47:  "R_CUDA_FUNC_DESC32_20",
	48:  "R_CUDA_FUNC_DESC32_LO_20",
	49:  "R_CUDA_FUNC_DESC32_HI_20",
	50:  "R_CUDA_CONST_FIELD19_20",
	51:  "R_CUDA_BINDLESSOFF13_36",
	52:  "R_CUDA_SURF_HEADER_INDEX",
	53:  "R_CUDA_INSTRUCTION64",
	54:  "R_CUDA_CONST_FIELD21_20",
	55:  "R_CUDA_ABS32_32",
	56:  "R_CUDA_ABS32_LO_32",
	57:  "R_CUDA_ABS32_HI_32",
	58:  "R_CUDA_ABS47_34",
	59:  "R_CUDA_ABS16_32",
	60:  "R_CUDA_ABS24_32",
	61:  "R_CUDA_FUNC_DESC32_32",
	62:  "R_CUDA_FUNC_DESC32_LO_32",
	63:  "R_CUDA_FUNC_DESC32_HI_32",
	64:  "R_CUDA_CONST_FIELD19_40",
	65:  "R_CUDA_BINDLESSOFF14_40",
	66:  "R_CUDA_CONST_FIELD21_38",
	67:  "R_CUDA_INSTRUCTION128",
	68:  "R_CUDA_YIELD_OPCODE9_0",
	69:  "R_CUDA_YIELD_CLEAR_PRED4_87",
	70:  "R_CUDA_32_LO",
	71:  "R_CUDA_32_HI",
	72:  "R_CUDA_UNUSED_CLEAR32",
	73:  "R_CUDA_UNUSED_CLEAR64",
	74:  "R_CUDA_ABS24_40",
	75:  "R_CUDA_ABS55_16_34",
	76:  "R_CUDA_8_0",
	77:  "R_CUDA_8_8",
	78:  "R_CUDA_8_16",
	79:  "R_CUDA_8_24",
	80:  "R_CUDA_8_32",
	81:  "R_CUDA_8_40",
	82:  "R_CUDA_8_48",
	83:  "R_CUDA_8_56",
	84:  "R_CUDA_G8_0",
	85:  "R_CUDA_G8_8",
	86:  "R_CUDA_G8_16",
	87:  "R_CUDA_G8_24",
	88:  "R_CUDA_G8_32",
	89:  "R_CUDA_G8_40",
	90:  "R_CUDA_G8_48",
	91:  "R_CUDA_G8_56",
	92:  "R_CUDA_FUNC_DESC_8_0",
	93:  "R_CUDA_FUNC_DESC_8_8",
	94:  "R_CUDA_FUNC_DESC_8_16",
	95:  "R_CUDA_FUNC_DESC_8_24",
	96:  "R_CUDA_FUNC_DESC_8_32",
	97:  "R_CUDA_FUNC_DESC_8_40",
	98:  "R_CUDA_FUNC_DESC_8_48",
	99:  "R_CUDA_FUNC_DESC_8_56",
	100: "R_CUDA_ABS20_44",
	101: "R_CUDA_SAMP_HEADER_INDEX_0",
	102: "R_CUDA_UNIFIED",
	103: "R_CUDA_UNIFIED_32",
	104: "R_CUDA_UNIFIED_8_0",
	105: "R_CUDA_UNIFIED_8_8",
	106: "R_CUDA_UNIFIED_8_16",
	107: "R_CUDA_UNIFIED_8_24",
	108: "R_CUDA_UNIFIED_8_32",
	109: "R_CUDA_UNIFIED_8_40",
	110: "R_CUDA_UNIFIED_8_48",
	111: "R_CUDA_UNIFIED_8_56",
	112: "R_CUDA_UNIFIED32_LO_32",
	113: "R_CUDA_UNIFIED32_HI_32",
}

func relocName(t uint32) string {
	if int(t) < len(relocNames) {
		return relocNames[t]
	}
	return fmt.Sprintf("R_CUDA_%d", t)
}

// eiattrNames maps an EIATTR id to its name as 11.8's cuobjdump spells it
// (0x41, EIATTR_ERROR_LAST, is 11.8's end marker, no attribute).
var eiattrNames = [...]string{
	0x00: "EIATTR_ERROR",
	0x01: "EIATTR_PAD",
	0x02: "EIATTR_IMAGE_SLOT",
	0x03: "EIATTR_JUMPTABLE_RELOCS",
	0x04: "EIATTR_CTAIDZ_USED",
	0x05: "EIATTR_MAX_THREADS",
	0x06: "EIATTR_IMAGE_OFFSET",
	0x07: "EIATTR_IMAGE_SIZE",
	0x08: "EIATTR_TEXTURE_NORMALIZED",
	0x09: "EIATTR_SAMPLER_INIT",
	0x0a: "EIATTR_PARAM_CBANK",
	0x0b: "EIATTR_SMEM_PARAM_OFFSETS",
	0x0c: "EIATTR_CBANK_PARAM_OFFSETS",
	0x0d: "EIATTR_SYNC_STACK",
	0x0e: "EIATTR_TEXID_SAMPID_MAP",
	0x0f: "EIATTR_EXTERNS",
	0x10: "EIATTR_REQNTID",
	0x11: "EIATTR_FRAME_SIZE",
	0x12: "EIATTR_MIN_STACK_SIZE",
	0x13: "EIATTR_SAMPLER_FORCE_UNNORMALIZED",
	0x14: "EIATTR_BINDLESS_IMAGE_OFFSETS",
	0x15: "EIATTR_BINDLESS_TEXTURE_BANK",
	0x16: "EIATTR_BINDLESS_SURFACE_BANK",
	0x17: "EIATTR_KPARAM_INFO",
	0x18: "EIATTR_SMEM_PARAM_SIZE",
	0x19: "EIATTR_CBANK_PARAM_SIZE",
	0x1a: "EIATTR_QUERY_NUMATTRIB",
	0x1b: "EIATTR_MAXREG_COUNT",
	0x1c: "EIATTR_EXIT_INSTR_OFFSETS",
	0x1d: "EIATTR_S2RCTAID_INSTR_OFFSETS",
	0x1e: "EIATTR_CRS_STACK_SIZE",
	0x1f: "EIATTR_NEED_CNP_WRAPPER",
	0x20: "EIATTR_NEED_CNP_PATCH",
	0x21: "EIATTR_EXPLICIT_CACHING",
	0x22: "EIATTR_ISTYPEP_USED",
	0x23: "EIATTR_MAX_STACK_SIZE",
	0x24: "EIATTR_SUQ_USED",
	0x25: "EIATTR_LD_CACHEMOD_INSTR_OFFSETS",
	0x26: "EIATTR_LOAD_CACHE_REQUEST",
	0x27: "EIATTR_ATOM_SYS_INSTR_OFFSETS",
	0x28: "EIATTR_COOP_GROUP_INSTR_OFFSETS",
	0x29: "EIATTR_COOP_GROUP_MASK_REGIDS",
	0x2a: "EIATTR_SW1850030_WAR",
	0x2b: "EIATTR_WMMA_USED",
	0x2c: "EIATTR_HAS_PRE_V10_OBJECT",
	0x2d: "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS",
	0x2e: "EIATTR_ATOM16_EMUL_INSTR_REG_MAP",
	0x2f: "EIATTR_REGCOUNT",
	0x30: "EIATTR_SW2393858_WAR",
	0x31: "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS",
	0x32: "EIATTR_SHARED_SCRATCH",
	0x33: "EIATTR_STATISTICS",
	0x34: "EIATTR_INDIRECT_BRANCH_TARGETS",
	0x35: "EIATTR_SW2861232_WAR",
	0x36: "EIATTR_SW_WAR",
	0x37: "EIATTR_CUDA_API_VERSION",
	0x38: "EIATTR_NUM_MBARRIERS",
	0x39: "EIATTR_MBARRIER_INSTR_OFFSETS",
	0x3a: "EIATTR_COROUTINE_RESUME_ID_OFFSETS",
	0x3b: "EIATTR_SAM_REGION_STACK_SIZE",
	0x3c: "EIATTR_PER_REG_TARGET_PERF_STATS",
	0x3d: "EIATTR_CTA_PER_CLUSTER",
	0x3e: "EIATTR_EXPLICIT_CLUSTER",
	0x3f: "EIATTR_MAX_CLUSTER_RANK",
	0x40: "EIATTR_INSTR_REG_MAP",
}

// eiattrNames12 names the ids from 0x41 on as cuobjdump 12.4 and 12.5
// spell them: 12.x gave 11.8's end marker value to
// EIATTR_RESERVED_SMEM_USED. 12.4 knows them up to EIATTR_SPARSE_MMA_MASK
// (0x50), 12.5 up to EIATTR_ANNOTATIONS (0x55).
var eiattrNames12 = [...]string{
	"EIATTR_RESERVED_SMEM_USED",
	"EIATTR_RESERVED_SMEM_0_SIZE",
	"EIATTR_UCODE_SECTION_DATA",
	"EIATTR_UNUSED_LOAD_BYTE_OFFSET",
	"EIATTR_KPARAM_INFO_V2", // kernels with over 4 KiB of parameters
	"EIATTR_SYSCALL_OFFSETS",
	"EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS",
	"EIATTR_GRAPHICS_GLOBAL_CBANK",
	"EIATTR_SHADER_TYPE",
	"EIATTR_VRC_CTA_INIT_COUNT",
	"EIATTR_TOOLS_PATCH_FUNC",
	"EIATTR_NUM_BARRIERS",
	"EIATTR_TEXMODE_INDEPENDENT",
	"EIATTR_PERF_STATISTICS",
	"EIATTR_AT_ENTRY_FRAGMENTS",
	"EIATTR_SPARSE_MMA_MASK", // on sm_90 functions
	"EIATTR_TCGEN05_1CTA_USED",
	"EIATTR_TCGEN05_2CTA_USED",
	"EIATTR_GEN_ERRBAR_AT_EXIT",
	"EIATTR_REG_RECONFIG",
	"EIATTR_ANNOTATIONS",
}

// eiattrName names attribute a as the tools of the release that wrote the
// cubin (its e_version: 118, 124, 125) do, EIATTR_0x<id> where that release
// knows none.
func eiattrName(a uint8, version uint32) string {
	known := len(eiattrNames) // 11.8
	switch {
	case version >= 125:
		known = 0x41 + len(eiattrNames12)
	case version >= 120:
		known = 0x51
	}
	switch {
	case int(a) >= known:
		return fmt.Sprintf("EIATTR_0x%02x", a)
	case a >= 0x41:
		return eiattrNames12[a-0x41]
	}
	return eiattrNames[a]
}

// symAttr reports how an attribute's SVAL payload carries symbol indices:
// 1 = the first u32 is a symbol index, 2 = every u32 is one (EXTERNS).
func symAttr(a uint8) int {
	switch a {
	case 0x0f: // EXTERNS
		return 2
	case 0x02, // IMAGE_SLOT
		0x06, // IMAGE_OFFSET
		0x07, // IMAGE_SIZE
		0x08, // TEXTURE_NORMALIZED
		0x09, // SAMPLER_INIT
		0x0a, // PARAM_CBANK
		0x11, // FRAME_SIZE
		0x12, // MIN_STACK_SIZE
		0x13, // SAMPLER_FORCE_UNNORMALIZED
		0x14, // BINDLESS_IMAGE_OFFSETS
		0x23, // MAX_STACK_SIZE
		0x26, // LOAD_CACHE_REQUEST
		0x2f, // REGCOUNT
		0x3b: // SAM_REGION_STACK_SIZE
		return 1
	}
	return 0
}

// CUDA section types (notes §2).
const (
	shtCUDAInfo         = 0x70000000
	shtCUDACallgraph    = 0x70000001
	shtCUDAPrototype    = 0x70000002
	shtCUDAResolvedRela = 0x70000003
	shtCUDAMetadata     = 0x70000004
	shtCUDAConstant     = 0x70000006
	shtCUDAGlobal       = 0x70000007
	shtCUDAGlobalInit   = 0x70000008
	shtCUDALocal        = 0x70000009
	shtCUDAShared       = 0x7000000a
	shtCUDARelocInfo    = 0x7000000b
	shtCUDAConstantB0   = 0x70000064
)

func sectionTypeName(t uint32) string {
	switch t {
	case 0:
		return "NULL"
	case 1:
		return "PROGBITS"
	case 2:
		return "SYMTAB"
	case 3:
		return "STRTAB"
	case 4:
		return "RELA"
	case 5:
		return "HASH"
	case 6:
		return "DYNAMIC"
	case 7:
		return "NOTE"
	case 8:
		return "NOBITS"
	case 9:
		return "REL"
	case 11:
		return "DYNSYM"
	case 14:
		return "INIT_ARRAY"
	case 15:
		return "FINI_ARRAY"
	case shtCUDAInfo:
		return "CUDA_INFO"
	case shtCUDACallgraph:
		return "CUDA_CALLGRAPH"
	case shtCUDAPrototype:
		return "CUDA_PROTOTYPE"
	case shtCUDAResolvedRela:
		return "CUDA_RESOLVED_RELA"
	case shtCUDAMetadata:
		return "CUDA_METADATA"
	case shtCUDAConstant:
		return "CUDA_CONSTANT"
	case shtCUDAGlobal:
		return "CUDA_GLOBAL"
	case shtCUDAGlobalInit:
		return "CUDA_GLOBAL_INIT"
	case shtCUDALocal:
		return "CUDA_LOCAL"
	case shtCUDAShared:
		return "CUDA_SHARED"
	case shtCUDARelocInfo:
		return "CUDA_RELOCINFO"
	}
	if t >= shtCUDAConstantB0 && t <= shtCUDAConstantB0+17 {
		return fmt.Sprintf("CUDA_CONSTANT_B%d", t-shtCUDAConstantB0)
	}
	return fmt.Sprintf("0x%x", t)
}

// noFileBytes reports whether sections of type t occupy no bytes in the
// file (NOBITS and the CUDA types that behave like it in relocatable
// cubins).
func noFileBytes(t uint32) bool {
	switch t {
	case 8, shtCUDAGlobal, shtCUDALocal, shtCUDAShared:
		return true
	}
	return false
}

func symTypeName(t uint8) string {
	switch t {
	case 0:
		return "NOTYPE"
	case 1:
		return "OBJECT"
	case 2:
		return "FUNC"
	case 3:
		return "SECTION"
	case 4:
		return "FILE"
	case 5:
		return "COMMON"
	case 6:
		return "TLS"
	case 10:
		return "CUDA_TEXTURE"
	case 11:
		return "CUDA_SAMPLER"
	case 12:
		return "CUDA_SURFACE"
	case 13:
		return "CUDA_OBJECT"
	}
	return fmt.Sprintf("%d", t)
}

func symBindName(b uint8) string {
	switch b {
	case 0:
		return "LOCAL"
	case 1:
		return "GLOBAL"
	case 2:
		return "WEAK"
	}
	return fmt.Sprintf("%d", b)
}

func progTypeName(t uint32) string {
	switch t {
	case 0:
		return "NULL"
	case 1:
		return "LOAD"
	case 2:
		return "DYNAMIC"
	case 3:
		return "INTERP"
	case 4:
		return "NOTE"
	case 6:
		return "PHDR"
	}
	return fmt.Sprintf("0x%x", t)
}

func progFlagsName(f uint32) string {
	s := ""
	if f&4 != 0 {
		s += "R"
	}
	if f&2 != 0 {
		s += "W"
	}
	if f&1 != 0 {
		s += "X"
	}
	if rest := f &^ 7; rest != 0 {
		s += fmt.Sprintf("+0x%x", rest)
	}
	if s == "" {
		s = "-"
	}
	return s
}

func elfTypeName(t uint16) string {
	switch t {
	case 0:
		return "ET_NONE"
	case 1:
		return "ET_REL"
	case 2:
		return "ET_EXEC"
	case 3:
		return "ET_DYN"
	case 4:
		return "ET_CORE"
	}
	return fmt.Sprintf("0x%x", t)
}
