module github.com/poolkit/pool/golangci

go 1.26.0

replace github.com/poolkit/pool => ../

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/poolkit/pool v0.0.0-00010101000000-000000000000
	golang.org/x/tools v0.52.0
)
