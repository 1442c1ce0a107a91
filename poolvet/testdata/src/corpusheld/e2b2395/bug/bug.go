// Package bug reproduces the shape found in review of e2b-dev/infra#2395
// (https://github.com/e2b-dev/infra/pull/2395), nbd/dispatch.go: when
// performWrite returned early because the context was cancelled, the
// caller's deferred putPayloadBuf gave the payload buffer back to the pool
// while performWrite's goroutine was still reading it through a
// bytes.Reader; a later request could overwrite it and the leaked
// goroutine wrote corrupted data into the cache.
//
// Check: useafterput (hand-off to a goroutine in a callee that can return
// early, with a deferred Put in the caller).
package bug

import (
	"bytes"
	"context"
	"io"
	"sync"
)

var payloadPool = sync.Pool{New: func() any { b := make([]byte, 0, 128<<10); return &b }}

func getPayloadBuf(n int) *[]byte {
	bp := payloadPool.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = make([]byte, n)
	}
	*bp = (*bp)[:n]
	return bp
}

func putPayloadBuf(bp *[]byte) {
	if cap(*bp) > 1<<20 {
		return
	}
	payloadPool.Put(bp)
}

type provider interface {
	WriteFrom(r io.Reader, off int64) (int64, error)
}

type Dispatch struct{ prov provider }

func (d *Dispatch) performWrite(ctx context.Context, off int64, data []byte) error {
	done := make(chan error, 1)
	go func() {
		_, err := d.prov.WriteFrom(bytes.NewReader(data), off)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *Dispatch) cmdWrite(ctx context.Context, conn io.Reader, off int64, length int) error {
	payloadBuf := getPayloadBuf(length)
	defer putPayloadBuf(payloadBuf)
	if _, err := io.ReadFull(conn, *payloadBuf); err != nil {
		return err
	}
	return d.performWrite(ctx, off, *payloadBuf) // want `handed to|may still use|used after|useafterput`
}
