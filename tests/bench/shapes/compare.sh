#!/bin/bash
# Interleaved links of one program of gen.sh by each linker given (nvlink first), through launch.c:
# medians of wall, CPU (user + system), peak RSS and minor faults; each output compared with the first's.
# Usage: compare.sh DIR SHAPE RUNS LINKER...   (cc -O2 -o /tmp/launch-shapes launch.c first)
dir=$(cd $1 && pwd); shape=$2; args=$(cat $dir/$shape.args); n=$3; shift 3
cd $dir/$shape || exit 1
raw=$(mktemp); outs=$(mktemp -d)
for i in $(seq $n); do
  k=0
  for b in "$@"; do k=$((k+1)); echo "$k $(/tmp/launch-shapes $b $args -o $outs/$k.cubin)" >> $raw; done
done
k=0
for b in "$@"; do
  k=$((k+1)); cmp -s $outs/$k.cubin $outs/1.cubin && echo "$b: output identical to $1's" || echo "$b: output DIFFERS from $1's"
done
python3 - $raw "$@" <<'P'
import sys, statistics as s
rows = {}
for l in open(sys.argv[1]):
    f = l.split()
    rows.setdefault(int(f[0]), []).append([float(f[i]) for i in (2, 4, 6, 8, 10, 12)])
for k, b in enumerate(sys.argv[2:], 1):
    m = [s.median(x[i] for x in rows[k]) for i in range(6)]
    print(f"{b:28s} n={len(rows[k])} wall {m[0]:7.1f} cpu {m[1]:7.1f} (user {m[2]:6.1f} sys {m[3]:6.1f}) rss {m[4]:7.0f} flt {m[5]:6.0f}")
P
rm -rf $raw $outs
