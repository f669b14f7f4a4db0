module github.com/cudalink/cudalink

go 1.26.0

require (
	github.com/ianlancetaylor/demangle v0.0.0-20260724033716-83e58baca724
	golang.org/x/sync v0.24.0
)
