package doubleput

import "bytes"

type releaser struct{ buf *bytes.Buffer }

func (r *releaser) Close() error { // want Close:`pool:put\(0\).field`
	if r.buf.Cap() <= 1<<20 {
		bufPool.Put(r.buf)
	}
	return nil
}

type request struct{ body *bytes.Buffer }

// The buffer goes back through the releaser's Close, and again on the
// retry path (go-resty/resty#745).
func (r *request) retry(send func(*releaser) error) {
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 && r.body.Cap() <= 1<<20 {
			bufPool.Put(r.body) // want `r.body is put into the pool twice: the call at line 27 already put it, through the struct that holds it`
		}
		r.body = bufPool.Get().(*bytes.Buffer)
		r.body.Reset()
		rc := &releaser{buf: r.body}
		err := send(rc)
		rc.Close()
		if err == nil {
			return
		}
	}
}

// Only the releaser puts the buffer: fine.
func (r *request) retryFixed(send func(*releaser) error) {
	for attempt := 0; attempt < 3; attempt++ {
		r.body = bufPool.Get().(*bytes.Buffer)
		r.body.Reset()
		rc := &releaser{buf: r.body}
		err := send(rc)
		rc.Close()
		if err == nil {
			return
		}
	}
}
