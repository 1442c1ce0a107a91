// Package benchmarks holds the poolbench workloads: each one runs the same
// job with several object-reuse strategies (plain allocation, sync.Pool,
// pool.Pool and the libraries poolkit is compared with) so that
// cmd/poolbench and `go test -bench` can measure them side by side.
package benchmarks
