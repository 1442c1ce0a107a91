package noreset

import (
	"bytes"
	"sync"
)

type annotations struct{ names []string }

type fmtCtx struct {
	flags int
	ann   *annotations
}

// A pooled formatter whose constructor stores what the caller passed in a
// field of an embedded struct, and whose Close resets only the buffer: the
// idle object keeps the caller's annotations (cockroachdb/cockroach#21306).
type fmtCtxWithBuf struct {
	fmtCtx
	Buffer bytes.Buffer
}

var fmtCtxPool = sync.Pool{New: func() any { return new(fmtCtxWithBuf) }}

func newFmtCtx(flags int, ann *annotations) *fmtCtxWithBuf {
	f := fmtCtxPool.Get().(*fmtCtxWithBuf)
	f.flags = flags
	f.ann = ann
	return f
}

func (f *fmtCtxWithBuf) Close() { // want Close:`pool:put\(0\)\+reset`
	if f.Buffer.Cap() > 64<<10 {
		return
	}
	f.Buffer.Reset()
	fmtCtxPool.Put(f) // want `f goes back to the pool still holding, in field ann, what a user was passed`
}

// The fix: the embedded struct is cleared as well as the buffer.
type clearedCtx struct {
	fmtCtx
	Buffer bytes.Buffer
}

var clearedCtxPool = sync.Pool{New: func() any { return new(clearedCtx) }}

func newClearedCtx(flags int, ann *annotations) *clearedCtx {
	f := clearedCtxPool.Get().(*clearedCtx)
	f.flags = flags
	f.ann = ann
	return f
}

func (f *clearedCtx) Close() { // want Close:`pool:put\(0\)\+reset`
	if f.Buffer.Cap() > 64<<10 {
		return
	}
	f.fmtCtx = fmtCtx{}
	f.Buffer.Reset()
	clearedCtxPool.Put(f)
}

// Clearing the one field through the embedded struct also counts.
type fieldCleared struct {
	fmtCtx
	Buffer bytes.Buffer
}

var fieldClearedPool = sync.Pool{New: func() any { return new(fieldCleared) }}

func newFieldCleared(ann *annotations) *fieldCleared {
	f := fieldClearedPool.Get().(*fieldCleared)
	f.ann = ann
	return f
}

func (f *fieldCleared) Close() { // want Close:`pool:put\(0\)\+reset`
	if f.Buffer.Cap() > 64<<10 {
		return
	}
	f.ann = nil
	f.Buffer.Reset()
	fieldClearedPool.Put(f)
}
