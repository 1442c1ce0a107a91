module github.com/poolkit/pool/benchmarks

go 1.26.0

replace github.com/poolkit/pool => ../

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794
	github.com/libp2p/go-buffer-pool v0.1.0
	github.com/poolkit/pool v0.0.0-00010101000000-000000000000
	github.com/valyala/bytebufferpool v1.0.0
	go.uber.org/goleak v1.3.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/term v0.47.0
	google.golang.org/grpc v1.85.0
	modernc.org/sqlite v1.61.1
)

require (
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	golang.org/x/sys v0.49.0 // indirect
	modernc.org/libc v1.79.0 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
