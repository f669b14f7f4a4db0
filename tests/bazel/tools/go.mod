// This module pins the Bazel tools that tests/bazel/run.sh and
// tests/bazel/gazelle.sh run with `go tool` from this directory: buildifier
// (the Starlark linter) and gazelle (which writes the Go packages'
// BUILD.bazel files). It is a module of its own so that their dependencies
// stay out of cudalink's go.mod and out of the Go dependencies that
// MODULE.bazel declares.
module github.com/cudalink/cudalink/tests/bazel/tools

go 1.26.0

tool (
	github.com/bazelbuild/bazel-gazelle/cmd/gazelle
	github.com/bazelbuild/buildtools/buildifier
)

require github.com/bazelbuild/buildtools v0.0.0-20260904073137-eaa4d125b423

require (
	github.com/bazel-contrib/bazel-gazelle/v2 v2.0.0-3 // indirect
	github.com/bazelbuild/bazel-gazelle v0.53.0 // indirect
	github.com/bmatcuk/doublestar/v4 v4.9.1 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/google/safeopen v0.0.0-20260327150837-43626d6f4685 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/mod v0.23.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
	google.golang.org/protobuf v1.36.3 // indirect
)
