#!/bin/sh
# cost.sh times `go vet -vettool=poolvet std` against `go vet -copylocks std`
# (vet's own copylocks check), the comparison docs/poolvet.md's Cost section
# quotes. Each of the four runs (copylocks, poolvet, poolvet, copylocks)
# starts from its own hard-linked copy of one warm build cache, so that
# compiled packages are shared and no run finds another's vet results; the
# poolvet binary gets a fresh build ID for the same reason. It prints, per
# run, the flag, real and user seconds (GNU time), and the report count.
#
# Usage, from the root of the poolkit checkout (needs /usr/bin/time):
#
#	sh poolvet/testdata/sweep/cost.sh             # WORK=/tmp/poolvet-cost
#
# The ratio to quote is poolvet's user time over copylocks', run by run;
# run it on an otherwise idle machine.
set -eu
WORK=${WORK:-/tmp/poolvet-cost}
root=$(pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
go build -ldflags=-buildid=cost-$$-$(date +%s) -o "$WORK/poolvet" ./cmd/poolvet
cd "$WORK"
GOCACHE="$WORK/cache-base" go vet -unusedresult std >/dev/null 2>&1 || true
for i in 1 2 3 4; do cp -al "$WORK/cache-base" "$WORK/cache-$i"; done
for spec in "1 -copylocks" "2 -vettool=$WORK/poolvet" "3 -vettool=$WORK/poolvet" "4 -copylocks"; do
	set -- $spec
	/usr/bin/time -f "$2 real %e user %U" env GOCACHE="$WORK/cache-$1" go vet "$2" std >"$WORK/run-$1.out" 2>&1 || true
	echo "$(tail -1 "$WORK/run-$1.out") reports $(grep -c '([a-z]*)$' "$WORK/run-$1.out" || true)"
done
cd "$root"
