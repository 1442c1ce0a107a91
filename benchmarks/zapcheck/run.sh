#!/usr/bin/env bash
# zapcheck: runs go.uber.org/zap v1.28.0's own, unmodified test suite with
# zap's internal/pool backed by github.com/poolkit/pool's Pool (issue 10).
# zap's tests use go.uber.org/goleak (leak_test.go, zapcore/leak_test.go),
# so a goroutine left running by the engine fails them. zap comes from the
# module proxy; the checkout under test is this repository, served at a
# pseudo-version by a file-system proxy (internal/cmd/modproxy), because
# one of zap's tests lists its dependencies with `go mod download -json`
# and vendors them, which a replace directive would escape.
#
# Usage: benchmarks/zapcheck/run.sh   (about a minute on a warm cache)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
dir=$(cd "$work" && go mod download -json go.uber.org/zap@v1.28.0 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp -r "$dir" "$work/zap"
chmod -R u+w "$work/zap"
cp "$root/benchmarks/zapcheck/testdata/pool.go" "$work/zap/internal/pool/pool.go"
version="v0.0.0-$(date -u +%Y%m%d%H%M%S)-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
(cd "$root" && go run ./internal/cmd/modproxy -dir "$root" -version "$version" -out "$work/proxy")
export GOPROXY="file://$work/proxy,$(go env GOPROXY)" GONOSUMDB=github.com/poolkit/pool GOFLAGS=-mod=mod
cd "$work/zap"
go mod edit -go=1.26 -require=github.com/poolkit/pool@"$version"
go mod tidy
grep -q 'kit.Pool' internal/pool/pool.go
go vet ./internal/pool
go test -count=1 ./...
echo "zapcheck: zap v1.28.0 tests pass with internal/pool backed by pool.Pool"
