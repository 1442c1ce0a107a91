// Package bug reproduces the shape of prometheus/client_golang#1889
// (https://github.com/prometheus/client_golang/pull/1889, "bug(remote_write): Fix
// compression buffer pooling"): the experimental remote-write API marshals the
// request into one pooled *[]byte, compresses it into a second pooled *[]byte, and
// gets back `payload`, a slice of that second buffer. Both buffers were put back
// into the sync.Pool right after compression, but `payload` was then sent (and
// re-sent on retries) by attemptWrite, so a concurrent Write could take the same
// buffer and overwrite the bytes being posted. The fix defers the Put of the
// compression buffer until Write returns.
//
// Check: useafterput (payload, a view of comprBuf, is used after comprBuf went back
// to the pool; report at the first use).
package bug

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

const maxPooledBufCap = 4 << 20

type Compression string

const SnappyBlockCompression Compression = "snappy"

type WriteResponseStats struct {
	Samples   int
	confirmed bool
}

func (s *WriteResponseStats) Add(rs WriteResponseStats) {
	s.Samples += rs.Samples
	s.confirmed = s.confirmed || rs.confirmed
}

type sizedMarshaler interface {
	Size() int
	MarshalToSizedBuffer([]byte) (int, error)
}

type retryableError struct {
	error
	retryAfter time.Duration
}

type API struct {
	client  *http.Client
	baseURL *url.URL
	retries int
	bufPool sync.Pool
}

func NewAPI(baseURL string) (*API, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, err
	}
	return &API{
		client:  http.DefaultClient,
		baseURL: u,
		retries: 3,
		bufPool: sync.Pool{
			New: func() any {
				b := make([]byte, 0, 1024*16) // Initial capacity of 16KB.
				return &b
			},
		},
	}, nil
}

func (r *API) putBuf(b *[]byte) {
	if cap(*b) > maxPooledBufCap {
		return
	}
	r.bufPool.Put(b)
}

// Write encodes msg, compresses it and sends it, retrying on retryable errors.
func (r *API) Write(ctx context.Context, compr Compression, msg sizedMarshaler) (_ WriteResponseStats, err error) {
	buf := r.bufPool.Get().(*[]byte)

	size := msg.Size()
	if cap(*buf) < size {
		*buf = make([]byte, size)
	} else {
		*buf = (*buf)[:size]
	}
	if _, err := msg.MarshalToSizedBuffer(*buf); err != nil {
		return WriteResponseStats{}, fmt.Errorf("encoding request %w", err)
	}

	comprBuf := r.bufPool.Get().(*[]byte)
	payload, err := compressPayload(comprBuf, compr, *buf)
	if err != nil {
		return WriteResponseStats{}, fmt.Errorf("compressing %w", err)
	}
	r.putBuf(buf)
	r.putBuf(comprBuf)

	// Since we retry writes we need to track the total amount of accepted data
	// across the various attempts.
	accumulatedStats := WriteResponseStats{}

	for attempt := 0; ; attempt++ {
		rs, err := r.attemptWrite(ctx, compr, payload, attempt) // want `useafterput`
		accumulatedStats.Add(rs)
		if err == nil {
			return accumulatedStats, nil
		}
		var retryableErr retryableError
		if !errors.As(err, &retryableErr) || attempt >= r.retries {
			return accumulatedStats, err
		}
		select {
		case <-ctx.Done():
			return WriteResponseStats{}, ctx.Err()
		case <-time.After(retryableErr.retryAfter + 100*time.Millisecond):
		}
	}
}

func compressPayload(tmpbuf *[]byte, enc Compression, inp []byte) (compressed []byte, _ error) {
	switch enc {
	case SnappyBlockCompression:
		// stand-in for snappy.Encode(*tmpbuf, inp): encodes into tmpbuf
		// and returns a slice of it
		maxLen := len(inp) + len(inp)/6 + 32
		if cap(*tmpbuf) < maxLen {
			*tmpbuf = make([]byte, maxLen)
		} else {
			*tmpbuf = (*tmpbuf)[:maxLen]
		}
		n := copy(*tmpbuf, inp)
		return (*tmpbuf)[:n], nil
	default:
		return compressed, fmt.Errorf("unknown compression scheme [%v]", enc)
	}
}

func (r *API) attemptWrite(ctx context.Context, compr Compression, payload []byte, attempt int) (WriteResponseStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.baseURL.String(), bytes.NewReader(payload))
	if err != nil {
		return WriteResponseStats{}, err
	}
	req.Header.Add("Content-Encoding", string(compr))
	req.Header.Set("X-Retry-Attempt", fmt.Sprint(attempt))
	resp, err := r.client.Do(req)
	if err != nil {
		return WriteResponseStats{}, retryableError{error: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 5 {
		return WriteResponseStats{}, retryableError{error: errors.New(resp.Status)}
	}
	if resp.StatusCode/100 != 2 {
		return WriteResponseStats{}, errors.New(resp.Status)
	}
	return WriteResponseStats{Samples: 1, confirmed: true}, nil
}
