package doubleput

import "bytes"

const maxPooled = 64 << 10

// A deferred closure whose Put is guarded only by a size check still puts
// every buffer of normal size: an explicit Put on top of it is a second Put.
func guardedDeferAndExplicit(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= maxPooled {
			bufPool.Put(b)
		}
	}()
	if fail {
		bufPool.Put(b) // want `b is put into the pool here and again by the deferred Put at line 11`
		return
	}
	b.WriteString("ok")
}

// The early-return form.
func guardedEarlyReturnAndExplicit(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if b.Len() > maxPooled {
			return
		}
		bufPool.Put(b)
	}()
	if fail {
		bufPool.Put(b) // want `b is put into the pool here and again by the deferred Put at line 26`
		return
	}
	b.WriteString("ok")
}

// The guard and a nil check after the explicit Put: fine.
func guardedDeferNil(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if b != nil && b.Cap() <= maxPooled {
			bufPool.Put(b)
		}
	}()
	if fail {
		bufPool.Put(b)
		b = nil
		return
	}
	b.WriteString("ok")
}

// A closure that puts only when a flag says so: silent.
func flaggedDeferAndExplicit(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	owned := true
	defer func() {
		if owned {
			bufPool.Put(b)
		}
	}()
	if fail {
		bufPool.Put(b)
		owned = false
		return
	}
	b.WriteString("ok")
}
