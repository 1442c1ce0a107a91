module github.com/poolkit/pool/advise

go 1.26.0

replace github.com/poolkit/pool => ../

require (
	github.com/google/pprof v0.0.0-20261016150608-1facf8f91b50
	github.com/poolkit/pool v0.0.0-00010101000000-000000000000
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
