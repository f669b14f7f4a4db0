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
          "and what the host side needs to register them.",
    fields = {
        "arches": "list of string: the target architectures, as given in " +
                  "arch (\"sm_80\", ...), in that order.",
        "cubins": "dict of string to File: the linked executable cubin " +
                  "for each architecture in arches.",
        "fatbin": "File or None: a fatbinary holding every cubin, made " +
                  "when arch lists more than one architecture; None " +
                  "otherwise.",
        "image": "File: the image to embed in the host program: the " +
                 "cubin for a single architecture, the fatbin otherwise.",
        "register_link_binaries": "File or None: the " +
                                  "--register-link-binaries file the " +
                                  "host side compiles to register the " +
                                  "linked objects (#define " +
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
        "linker": "FilesToRunProvider: the device linker, which takes " +
                  "nvlink's command line and an @file of one argument " +
                  "per line.",
        "fatbinary": "FilesToRunProvider or None: a tool with the " +
                     "command line of NVIDIA's fatbinary (-64, " +
                     "--create=FILE, --image3=kind=elf,sm=NN,file=FILE) " +
                     "that packs the cubins of a multi-architecture link; " +
                     "None when the toolchain has none.",
    },
)
