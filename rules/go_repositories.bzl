"""WORKSPACE macro: the Go SDK and Go modules the default toolchain builds with.

Call it after cudalink_dependencies() (from repositories.bzl), which declares
the repositories this file loads from. The modules come from go_deps.bzl,
which tests/bazel/gazelle.sh writes from go.mod (bzlmod users get them from
go.mod directly, through go_deps).
"""

load("@bazel_gazelle//:deps.bzl", "gazelle_dependencies")
load("@io_bazel_rules_go//go:deps.bzl", "go_register_toolchains", "go_rules_dependencies")
load(":go_deps.bzl", "cudalink_go_modules")

def cudalink_go_dependencies(go_version = "1.26.0"):
    """Declares rules_go's and gazelle's dependencies and cudalink's Go modules.

    Args:
      go_version: the Go SDK to register; cudalink needs 1.26.0 or later.
        Pass None when the workspace registers its Go SDK itself.
    """
    go_rules_dependencies()
    if go_version:
        go_register_toolchains(version = go_version)
    gazelle_dependencies()
    cudalink_go_modules()
