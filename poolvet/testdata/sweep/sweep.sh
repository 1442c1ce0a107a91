#!/bin/sh
# sweep.sh runs poolvet, under go vet, over the standard library with its
# tests and over 24 popular modules at pinned versions with their tests and
# their whole dependency closure (about 1,700 packages besides std). It fails
# if poolvet panics or reports an internal error on any package, and writes
# every report to $WORK/std.out and $WORK/mods.out for judging (see the
# precision table in docs/poolvet.md).
#
# Usage, from the root of the poolkit checkout:
#
#	sh poolvet/testdata/sweep/sweep.sh            # WORK=/tmp/poolvet-sweep
#	WORK=/tmp/s SKIP_STD=1 sh poolvet/testdata/sweep/sweep.sh
#
# It needs the Go module proxy (the whole module cache of this machine, these
# modules included, was 556 MB of downloads, 2.5 GB extracted) and
# took 26 minutes cold on 2 shared cores (25 s with a warm build cache and
# an unchanged poolvet): too slow for CI, hence a script. The
# modules and their versions are in sweep.mod (a go.mod), the package
# patterns in modules.txt.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
WORK=${WORK:-/tmp/poolvet-sweep}
mkdir -p "$WORK/mod"

echo "building poolvet from $root"
# A build ID of its own makes this binary's content unique, and with it the
# tool ID go vet keys its cache on: a vet of the same packages by an
# identical binary run for facts only (as a dependency of another vet)
# would otherwise be replayed here with its reports left out.
(cd "$root" && go build -ldflags="-buildid=sweep-$(date +%s)-$$" -o "$WORK/poolvet" ./cmd/poolvet)

cp "$here/sweep.mod" "$WORK/mod/go.mod"
cd "$WORK/mod"
patterns=$(sed -e '/^#/d' -e '/^$/d' -e 's|$|/...|' "$here/modules.txt")

# -mod=mod lets go fill go.sum for the pinned versions; it adds no version,
# as every module of the closure (tests included) is required in sweep.mod.
export GOFLAGS=-mod=mod
echo "listing packages (downloads modules on a cold cache)"
go list -e -deps -test $patterns > /dev/null
go list -e -deps -test $patterns |
	grep -E '^[^/]+\.[^/]+/' | grep -v -e '\.test$' -e ' \[' | sort -u > pkgs.all
go list -e -f '{{if not .Error}}{{if not .DepsErrors}}{{.ImportPath}}{{end}}{{end}}' $(cat pkgs.all) |
	sort -u > pkgs.txt
echo "$(wc -l < pkgs.txt) packages besides std"

status=0
check() { # file: fail on a panic or an internal error of the analyzer
	if grep -n -e 'panic:' -e 'internal error' -e 'fatal error:' "$1"; then
		echo "FAIL: poolvet crashed, see $1"
		status=1
	fi
}

if [ "${SKIP_STD:-}" = "" ]; then
	echo "go vet -vettool std"
	(cd "$WORK/mod" && go vet -vettool="$WORK/poolvet" std > "$WORK/std.out" 2>&1) || true
	check "$WORK/std.out"
fi

echo "go vet -vettool over the modules and their dependencies"
go vet -vettool="$WORK/poolvet" $(cat pkgs.txt) > "$WORK/mods.out" 2>&1 || true
check "$WORK/mods.out"

for f in "$WORK/std.out" "$WORK/mods.out"; do
	[ -f "$f" ] || continue
	echo "== $f: reports by check (test files / other files)"
	for c in useafterput doubleput nonpointer noreset unbounded typemismatch; do
		all=$(grep -c "($c)\$" "$f" || true)
		tests=$(grep "($c)\$" "$f" | grep -c '_test\.go:' || true)
		echo "$c $tests / $((all - tests))"
	done
done
exit $status
