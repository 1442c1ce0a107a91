package unbounded

import (
	"bytes"
	"sync"
)

// A Put wrapper that replaces an oversized buffer with a fresh one before
// its Put: the size check on the parameter bounds what goes back
// (trufflehog's buffer pool). Not reported; a replacement on another
// condition bounds nothing.
var replacedSync = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putReplaced(b *bytes.Buffer) {
	if b.Cap() > 1<<16 {
		b = new(bytes.Buffer)
	} else {
		b.Reset()
	}
	replacedSync.Put(b)
}

func putUnchecked(b *bytes.Buffer, fresh bool) {
	if fresh {
		b = new(bytes.Buffer)
	}
	replacedSync.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check`
}
