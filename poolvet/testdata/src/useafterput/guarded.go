package useafterput

import (
	"bytes"
	"errors"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// Deferred closures whose Put is guarded only by a size check of the same
// object put every buffer of normal size: they count as a deferred Put.

const maxPooled = 64 << 10

var maxKept = 1 << 16

// The capacity guard that the unbounded check's fix writes.
func guardedDefer(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 22 gives back to the pool`
}

// The other polarity, with the bound on the left and a package-level var.
func guardedDeferReversed(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if maxKept >= buf.Len() {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes()[1:] // want `returned value shares memory with buf, which the deferred Put at line 35`
}

// The early-return form, with a nil check too.
func guardedDeferEarlyReturn(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf == nil || buf.Cap() > maxPooled {
			return
		}
		bufPool.Put(buf)
	}()
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 48`
}

// A pooled *[]byte in a typed pool, guarded with cap(*p).
var slices = pool.Pool[*[]byte]{New: func() *[]byte { b := make([]byte, 0, 512); return &b }}

func guardedTyped(s string) []byte {
	p := slices.Get()
	defer func() {
		if cap(*p) < maxPooled {
			slices.Put(p)
		}
	}()
	*p = append((*p)[:0], s...)
	return (*p)[:len(s)] // want `returned value shares memory with p, which the deferred Put at line 63`
}

// bytepool.Put and Buffer.Free under a size guard.
func guardedBytepool(n int) []byte {
	b := bytepool.Get(n)
	defer func() {
		if cap(b) <= maxPooled {
			bytepool.Put(b)
		}
	}()
	return b[:n/2] // want `returned value shares memory with b, which the deferred Put at line 75`
}

func guardedFree(s string) []byte {
	buf := bytepool.GetBuffer()
	defer func() {
		if buf.Cap() > maxPooled {
			return
		}
		buf.Free()
	}()
	buf.Write([]byte(s))
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 85`
}

// A wrapper called under the guard.
func putBuffer(b *bytes.Buffer) { bufPool.Put(b) }

func guardedWrapper(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			putBuffer(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 101`
}

// Returning a copy stays silent.
func guardedDeferCopy(s string) string {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.String()
}

// Any other condition keeps the closure conditional: silent.

func deferOnFlag(keep bool, s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if !keep {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes()
}

func deferSizeAndError(s string) (out []byte, err error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if err != nil && buf.Cap() <= maxPooled {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	if s == "" {
		err = errors.New("empty")
	}
	return buf.Bytes(), err
}

// The bound is a parameter named as a limit: a size guard all the same.
func deferLocalBound(limit int, s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= limit {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 156`
}

// A bound read from settings through getters (mattermost/logr 0c93e63).
type logSettings struct{ MaxPooledBuffer int }

type logRecord struct{ settings *logSettings }

func (r *logRecord) Settings() *logSettings { return r.settings }

func deferSettingsBound(rec *logRecord, s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() < rec.Settings().MaxPooledBuffer {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 175`
}

// Compared with a needed size, not a bound: the closure may keep it.
func deferNeededSize(need int, s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() < need {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes()
}

// The size of another object is checked.
func deferOtherSize(other *bytes.Buffer, s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if other.Len() <= maxPooled {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes()
}

// Only huge buffers go back: not a guard of the normal case.
func deferHugeOnly(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() > maxPooled {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	return buf.Bytes()
}

// A hand-off to a goroutine before a size-guarded deferred Put.
func guardedDeferGo(s string) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			bufPool.Put(buf)
		}
	}()
	buf.WriteString(s)
	go consumeBytes(buf.Bytes()) // want `buf is handed to a goroutine here, but the deferred Put at line 227`
}
