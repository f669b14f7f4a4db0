module github.com/cudalink/cudalink

go 1.26.0

require (
	github.com/ianlancetaylor/demangle v0.0.0-20260724033716-83e58baca724
	github.com/klauspost/compress v1.20.3
	github.com/pierrec/lz4/v4 v4.1.33
	golang.org/x/sync v0.24.0
	google.golang.org/protobuf v1.36.12
)

require github.com/ebitengine/purego v0.11.3
