"""WORKSPACE macros: cudalink's dependencies and its default toolchain.

In a WORKSPACE:

    load("@cudalink//rules:repositories.bzl", "cudalink_dependencies", "cudalink_register_toolchains")
    cudalink_dependencies()
    load("@cudalink//rules:go_repositories.bzl", "cudalink_go_dependencies")
    cudalink_go_dependencies()
    cudalink_register_toolchains()

Only the default toolchain needs these dependencies (rules_go and gazelle,
to build cudalink from source). A workspace that registers a toolchain of
its own needs neither macro.
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def cudalink_dependencies():
    """Declares rules_go, gazelle and bazel_skylib unless already declared."""
    maybe(
        http_archive,
        name = "bazel_skylib",
        sha256 = "51b5105a760b353773f904d2bbc5e664d0987fbaf22265164de65d43e910d8ac",
        urls = ["https://github.com/bazelbuild/bazel-skylib/releases/download/1.8.1/bazel-skylib-1.8.1.tar.gz"],
    )
    maybe(
        http_archive,
        name = "io_bazel_rules_go",
        sha256 = "68af54cb97fbdee5e5e8fe8d210d15a518f9d62abfd71620c3eaff3b26a5ff86",
        urls = [
            "https://github.com/bazel-contrib/rules_go/releases/download/v0.59.0/rules_go-v0.59.0.zip",
        ],
    )
    maybe(
        http_archive,
        name = "bazel_gazelle",
        sha256 = "675114d8b433d0a9f54d81171833be96ebc4113115664b791e6f204d58e93446",
        urls = [
            "https://github.com/bazelbuild/bazel-gazelle/releases/download/v0.47.0/bazel-gazelle-v0.47.0.tar.gz",
        ],
    )

# A WORKSPACE macro: register_toolchains takes no name.
# buildifier: disable=unnamed-macro
def cudalink_register_toolchains():
    """Registers the default device-linker toolchain (cudalink from source)."""
    native.register_toolchains("@cudalink//toolchain:default_toolchain")
