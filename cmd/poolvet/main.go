// The poolvet command reports misuse of object pools.
//
// It runs standalone (poolvet ./...) or under go vet
// (go vet -vettool=$(command -v poolvet) ./...). See package poolvet.
package main

import (
	"github.com/poolkit/pool/poolvet"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(poolvet.Analyzer) }
