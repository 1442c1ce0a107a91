// Package fixed is a fixed twin of e2b-dev/infra#2395
// (https://github.com/e2b-dev/infra/pull/2395): performWrite waits for its
// goroutine before returning, even when the context is cancelled, so the
// deferred Put runs after the last read of the payload.
package fixed

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
		<-done
		return ctx.Err()
	}
}

func (d *Dispatch) cmdWrite(ctx context.Context, conn io.Reader, off int64, length int) error {
	payloadBuf := getPayloadBuf(length)
	defer putPayloadBuf(payloadBuf)
	if _, err := io.ReadFull(conn, *payloadBuf); err != nil {
		return err
	}
	return d.performWrite(ctx, off, *payloadBuf)
}
