#!/usr/bin/env bash
# Regenerates worker_protocol.pb.go from worker_protocol.proto. Needs protoc
# (Debian: apt-get install protobuf-compiler) and protoc-gen-go of the same
# version as google.golang.org/protobuf in go.mod:
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@$(go list -m -f '{{.Version}}' google.golang.org/protobuf)
set -euo pipefail
cd "$(dirname "$0")"
PATH="$(go env GOPATH)/bin:$PATH"
protoc --go_out=. --go_opt=paths=source_relative worker_protocol.proto
