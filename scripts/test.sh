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

# Every fuzz target runs a fixed number of executions on top of its seed
# corpus (go test above already ran the seeds); longer runs are for off CI:
#   go test -run XXX -fuzz FuzzLink -fuzztime 10m ./linker
echo "== fuzz (short)"
for target in "FuzzParse ./linker/cubin" "FuzzLink ./linker" "FuzzParse ./linker/fatbin" \
  "FuzzWrite ./linker/fatbin" "FuzzParse ./linker/hostobj" "FuzzParse ./linker/archive" \
  "FuzzProtoRequests ./linker/worker" "FuzzJSONRequests ./linker/worker" \
  "FuzzNormalize ./tests/normalize"; do
  set -- $target
  go test -run XXX -fuzz "^$1\$" -fuzztime 3000x "$2" 2>&1 | tail -1
done
