"""Providers of the cudalink rules."""

CudaDeviceObjectsInfo = provider(
    doc = "Device objects that a cuda_device_link collects from its deps, " +
          "transitively. Returned by cuda_device_objects.",
    fields = {
        "objects": "depset of File: relocatable device objects (.cubin), " +
                   "host objects compiled with nvcc -dc (.o) and archives " +
                   "(.a), in link order (topological: a target's own " +
                   "objects come before those of its deps). Each file " +
                   "appears once, however many paths lead to it.",
    },
)

CudaDeviceLinkInfo = provider(
    doc = "The result of a cuda_device_link: the linked device image(s) " +
          "and what the host side needs to embed and register them.",
    fields = {
        "arches": "list of string: the target architectures, as given in " +
                  "arch (\"sm_80\", \"compute_90\", ...), in that order.",
        "cubins": "dict of string to File: the linked executable cubin " +
                  "for each sm_ architecture in arches (none for a " +
                  "compute_ one).",
        "embedded_fatbin": "File or None: <name>.fatbin.c, the C source " +
                           "fatbinary -link --embedded-fatbin writes for " +
                           "nvcc -dlink's link.stub (the fatbin as an " +
                           "assembler .nv_fatbin section). Made with fatbin.",
        "fatbin": "File or None: <name>.fatbin, a fatbinary holding every " +
                  "cubin (as fatbinary --create writes it), made when " +
                  "arch lists more than one sm_ architecture, or none " +
                  "(compute_ ones only: then it holds no image), or " +
                  "fatbin is set; None otherwise.",
        "image": "File: the image to embed in the host program: the " +
                 "cubin for a single sm_ architecture, the fatbin " +
                 "otherwise.",
        "register_link_binaries": "File or None: the " +
                                  "--register-link-binaries file nvcc " +
                                  "-dlink's link.stub includes to register " +
                                  "the linked objects (#define " +
                                  "NUM_PRELINKED_OBJECTS and one " +
                                  "DEFINE_REGISTER_FUNC line per object); " +
                                  "None unless register_link_binaries " +
                                  "is set.",
    },
)

CudaDeviceLinkerInfo = provider(
    doc = "The tools of a cuda_device_linker_toolchain; found as the " +
          "cudalink field of the ToolchainInfo of the toolchain type " +
          "@cudalink//toolchain:toolchain_type.",
    fields = {
        "cuda_version": "string: the CUDA release the links reproduce " +
                        "(--cuda-version), or \"\" to let the linker " +
                        "take it from the inputs.",
        "linker": "FilesToRunProvider: the device linker, which takes " +
                  "nvlink's command line, an @file of one argument per " +
                  "line, several -arch values with --fatbin and " +
                  "--embedded-fatbin (cudalink's own options).",
        "link_stub": "File or None: the toolkit's crt/link.stub, the " +
                     "registration code nvcc -dlink compiles into the " +
                     "host object; cuda_link_stub compiles it.",
        "nvvm": "depset of File: the toolkit's nvvm directory " +
                "(lib64/libnvvm.so, libdevice/libdevice.10.bc) that LTO " +
                "links (lto = True) load libnvvm from; empty when the " +
                "toolchain has none.",
        "nvvm_helper": "FilesToRunProvider or None: cudalink-nvvm, the " +
                       "helper the linker runs libnvvm and libnvJitLink " +
                       "in, given to LTO links as --nvvm-helper and a " +
                       "tool of the action; None: the linker finds its " +
                       "own (next to it, or in its runfiles).",
        "nvjitlink": "File or None: the toolkit's libnvJitLink.so.12, " +
                     "which reads the IR of CUDA 12 -dlto objects; given " +
                     "to LTO links as --nvjitlink and an input.",
        "nvvm_path": "string: the directory of nvvm, as -nvvmpath takes " +
                     "it (the one holding lib64/libnvvm.so), relative to " +
                     "the execution root; \"\" when the toolchain has no nvvm.",
        "runtime": "CcInfo or None: the CUDA runtime the host program " +
                   "links with (libcudart), with the headers link.stub " +
                   "includes (crt/host_defines.h, fatbinary_section.h).",
        "ptx_compiler": "FilesToRunProvider or None: cudalink-ptxc, the " +
                        "toolkit's PTX compiler in one process (see " +
                        "cuda_ptx_compiler), given to every link as " +
                        "--ptx-compiler and a tool of the action: the " +
                        "linker compiles PTX inputs and LTO's PTX with it " +
                        "instead of running ptxas.",
        "ptxas": "FilesToRunProvider or None: the toolkit's ptxas, given " +
                 "to every link as --ptxas (the linker runs it only for " +
                 "inputs that must be compiled: PTX without SASS for the " +
                 "target, and LTO).",
    },
)
