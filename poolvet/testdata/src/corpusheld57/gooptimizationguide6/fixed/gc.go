// Source: https://github.com/astavonin/go-optimization-guide/issues/6
// (example in docs/01-common-patterns/gc.md, "Minimize Allocation Rate";
// removed in commit a360a24553d0a69b21022438be0f95f1c205aa4e,
// "removing confusing advice from GC part").
//
// Fixed twin: the pooled []byte example is gone; copyData allocates a fresh
// slice for each copy, so nothing non-pointer is stored in a sync.Pool.
package fixed

func copyData(data []byte) []byte {
	return append([]byte{}, data...)
}

// Process copies every record before handing it on.
func Process(records [][]byte, sink func([]byte)) {
	for _, r := range records {
		sink(copyData(r))
	}
}
