#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs (scripts/setup.sh),
# checks formatting and vet, then runs every Go test, including the
# differential test against nvlink's committed results and, with the toolkit
# present, the cuobjdump/nvdisasm checks of every output.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet ./...
echo "== go test"
go test -count=1 ./... 2>&1 | tee /tmp/cudalink-test.log
