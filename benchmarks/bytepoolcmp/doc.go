// Package bytepoolcmp compares bytepool with the byte-buffer pools Go
// programs use today, for the targets of bytepool's design:
//
//   - BenchmarkGetPut: Get(n)+Put over log-uniform sizes 16 B..64 KiB against
//     libp2p/go-buffer-pool, grpc/mem and make, with the mean cap/len of what
//     each hands out (metric "cap/len");
//   - BenchmarkBufferLogLine: formatting a log line into a pooled buffer,
//     against valyala/bytebufferpool and sync.Pool of *bytes.Buffer;
//   - BenchmarkBloat: mostly small writes and 1% of 4 MiB from 8 goroutines;
//     metric "retained-MiB" is the heap still live after the work stops and
//     one GC cycle, against sync.Pool+bytes.Buffer and bytebufferpool.
//
// Run them with -count=10 and compare with benchstat:
//
//	cd benchmarks && go test -run '^$' -bench . -count 10 ./bytepoolcmp > new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl new.txt
//
// The package holds only benchmarks.
package bytepoolcmp
