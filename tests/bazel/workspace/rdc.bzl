"""Relocatable device code as another rule set hands it over.

Two test rules that return nvcc -dc objects in the shapes rules_cuda's rules
give them, with no CUDA rule set here: cuda_device_link must take them as
they come.

- rdc_objects, as rules_cuda's cuda_objects: the objects as the target's
  files (DefaultInfo, output group rdc_objects) and a CcInfo with a
  compilation context only. They go in the srcs of cuda_device_link.
- rdc_library, as rules_cuda's cuda_library: a CcInfo whose linking context
  cc_common makes from the objects as compilation outputs (objects and
  pic_objects, and a static archive of them). It goes in the deps of
  cuda_device_link or cuda_binary, as a cc_library would.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

# Bazel's own, as in cudalink's rules/private/cc.bzl (Bazel 4.2.3's rules_cc
# has neither).
_CcInfo = CcInfo  # buildifier: disable=native-cc-info
_cc_common = cc_common  # buildifier: disable=native-cc-common

def _rdc_objects_impl(ctx):
    objects = depset(ctx.files.objects)
    return [
        DefaultInfo(files = objects),
        OutputGroupInfo(rdc_objects = objects),
        _CcInfo(compilation_context = _cc_common.create_compilation_context()),
    ]

rdc_objects = rule(
    implementation = _rdc_objects_impl,
    doc = "nvcc -dc objects as rules_cuda's cuda_objects returns them.",
    attrs = {
        "objects": attr.label_list(allow_files = [".o"], doc = "nvcc -dc host objects."),
    },
)

def _rdc_library_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    features = _cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    objects = depset(ctx.files.objects)
    linking_context, _ = _cc_common.create_linking_context_from_compilation_outputs(
        name = ctx.label.name,
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        compilation_outputs = _cc_common.create_compilation_outputs(objects = objects, pic_objects = objects),
        disallow_dynamic_library = True,
    )
    return [
        DefaultInfo(files = objects),
        _CcInfo(
            compilation_context = _cc_common.create_compilation_context(),
            linking_context = linking_context,
        ),
    ]

rdc_library = rule(
    implementation = _rdc_library_impl,
    doc = "nvcc -dc objects in a CcInfo made as rules_cuda's cuda_library makes its own.",
    attrs = {
        "objects": attr.label_list(allow_files = [".o"], doc = "nvcc -dc host objects."),
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)
