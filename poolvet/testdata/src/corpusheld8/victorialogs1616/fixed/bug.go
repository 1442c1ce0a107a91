// Package fixed is the fixed twin of VictoriaMetrics/VictoriaLogs#1616
// (https://github.com/VictoriaMetrics/VictoriaLogs/pull/1616, review thread on
// app/vlstorage/netinsert/netinsert.go): sendInsertRequest compresses the
// pending data into a pooled buffer, returns the buffer to the pool with a
// deferred Put and passes a reader over it to doRequest, which sends it with
// http.Client.Do under a per-request timeout. When Do fails with the timeout,
// the transport may still be reading the request body in its own goroutine
// while the buffer is already back in the pool and being recompressed into
// for the re-routed request.
//
// Fix (one of the remedies the review proposes): hand the transport a copy
// of the compressed body, so the pooled buffer can go back when the function
// returns.
package fixed

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

const (
	sendTimeout     = 10 * time.Second
	maxPooledZstdSz = 4 << 20
)

var zstdBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func getZstdBuf() *[]byte {
	p := zstdBufPool.Get().(*[]byte)
	*p = (*p)[:0]
	return p
}

func putZstdBuf(p *[]byte) {
	if cap(*p) > maxPooledZstdSz {
		return
	}
	*p = (*p)[:0]
	zstdBufPool.Put(p)
}

// compressBlock appends a compressed form of src to dst (a stand-in for zstd).
func compressBlock(dst, src []byte) []byte {
	return append(dst, src...)
}

type storageNode struct {
	c       *http.Client
	sendCtx context.Context
	addr    string
}

func (sn *storageNode) sendInsertRequest(pending []byte) error {
	p := getZstdBuf()
	defer putZstdBuf(p)

	*p = compressBlock((*p)[:0], pending)
	body := append([]byte(nil), (*p)...)
	return sn.doRequest("/internal/insert", bytes.NewReader(body))
}

func (sn *storageNode) doRequest(path string, body io.Reader) error {
	ctx, cancel := context.WithTimeout(sn.sendCtx, sendTimeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sn.addr+path, body)
	if err != nil {
		return err
	}
	resp, err := sn.c.Do(req)
	if err != nil {
		return fmt.Errorf("cannot send request to %s: %w", sn.addr, err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("unexpected status %d from %s", resp.StatusCode, sn.addr)
	}
	return nil
}
