#!/bin/sh
# instrs.sh TESTBINARY BENCH N: instructions and simulated L1 data-cache
# misses per op of one benchmark, counted by callgrind as the difference
# between a run of 2N ops and one of N ops (so setup, warm-up and process
# start cancel out). For example
#
#	cd benchmarks && go test -c -o /tmp/bpc.test ./bytepoolcmp
#	sh bytepoolcmp/instrs.sh /tmp/bpc.test '^BenchmarkGetPut$/^impl=bytepool$' 200000
#
# needs valgrind. GOMAXPROCS is 1, so that no idle P spins looking for work
# (valgrind runs one thread at a time), and async preemption is off so that
# its signals do not add instructions at random. The cache is callgrind's
# model of this machine's (32 KiB, 8-way L1d): misses/op show what a larger
# working set costs, which instruction counts do not.
set -eu
bin=$1 bench=$2 n=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --cache-sim=yes \
		--callgrind-out-file="$out/cg.$1" "$bin" -test.run '^$' -test.bench "$bench" \
		-test.benchtime="$1"x -test.count 1 -test.cpu 1 >"$out/log.$1" 2>&1
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log.$1")
	d1=$(sed -n 's/.*D1  *misses: *\([0-9,]*\).*/\1/p' "$out/log.$1" | tr -d ,)
	echo "$ir $d1"
}
set -- $(count "$n") $(count $((2 * n)))
echo "$bench: $((($3 - $1) / n)) instructions/op, $(echo "scale=2; ($4 - $2) / $n" | bc) L1d misses/op"
