#!/usr/bin/env bash
# Fails when a Go package directory of the repository has no BUILD.bazel.
# A Go package directory is one holding a .go file that git tracks or would
# track (ignored files such as scratch/ do not count), outside testdata/,
# hidden directories, bazel-* output links and nested modules (a directory
# with its own go.mod, such as tests/bazel/tools), as the go command sees
# them. Run tests/bazel/gazelle.sh to write the missing files.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

go_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard -- '*.go'
  else
    find . -mindepth 1 \( -name '.*' -o -name 'bazel-*' \) -prune -o -type f -name '*.go' -print | sed 's|^\./||'
  fi
}

missing=0
while IFS= read -r dir; do
  if [ ! -f "$dir/BUILD.bazel" ] && [ ! -f "$dir/BUILD" ]; then
    echo "missing BUILD.bazel in Go package directory: ${dir#./}" >&2
    missing=$((missing + 1))
  fi
done < <(
  go_files |
    grep -Ev '(^|/)(testdata|bazel-[^/]*|\.[^/]*)/' |
    xargs -r -n1 dirname | sort -u |
    while IFS= read -r dir; do
      # Skip directories inside a nested module.
      d=$dir nested=no
      while [ "$d" != "." ]; do
        if [ -f "$d/go.mod" ]; then nested=yes; break; fi
        d=$(dirname "$d")
      done
      [ "$nested" = no ] && echo "$dir"
    done
)
if [ "$missing" -ne 0 ]; then
  echo "$missing Go package(s) without BUILD.bazel; run tests/bazel/gazelle.sh" >&2
  exit 1
fi
echo "every Go package has a BUILD.bazel"
