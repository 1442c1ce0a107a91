module github.com/poolkit/pool

go 1.26.0

require golang.org/x/tools v0.52.0 // indirect
