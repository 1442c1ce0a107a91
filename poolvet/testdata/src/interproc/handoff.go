package interproc

import (
	"bytes"
	"context"
	"net/http"
	"sync"
)

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBody(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 {
		bodyPool.Put(b)
	}
}

// net/http's transport may read the body after Do returned
// (influxdata/kapacitor#1462).
func postThenPut(client *http.Client, url string) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.WriteString("{}")
	req, err := http.NewRequest(http.MethodPost, url, buf)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	putBody(buf) // want `buf is put back into the pool while net/http's transport \(given the request at line 28\) may still use it`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The same with a deferred, size-guarded Put: reported at the hand-off.
func postDeferred(ctx context.Context, client *http.Client, url string) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			bodyPool.Put(buf)
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, buf)
	if err != nil {
		return err
	}
	resp, err := client.Do(req) // want `buf is handed to net/http's transport, which can still read the request body`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A pooled buffer that only receives the response is not handed off.
func readResponse(client *http.Client, url string) (int, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBody(buf)
	n, err := buf.ReadFrom(resp.Body)
	return int(n), err
}

// A copy of the pooled bytes is the body: fine.
func postCopy(client *http.Client, url string) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.WriteString("{}")
	body := bytes.Clone(buf.Bytes())
	putBody(buf)
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type state struct{ n int }

var statePool = sync.Pool{New: func() any { return new(state) }}

// Notify passes s to a goroutine and returns without waiting.
func Notify(s *state, done func(*state)) { // want Notify:`pool:handoff\(0\)`
	go done(s)
}

// notifyWait waits for the goroutine: not a hand-off.
func notifyWait(s *state, done func(*state)) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		done(s)
	}()
	wg.Wait()
}

func handOffThroughCallee(done func(*state)) {
	s := statePool.Get().(*state)
	Notify(s, done)
	statePool.Put(s) // want `s is put back into the pool while the user that Notify passes it on to \(called at line 106\) may still use it`
}

func waitedInCallee(done func(*state)) {
	s := statePool.Get().(*state)
	notifyWait(s, done)
	statePool.Put(s)
}

var clientPool = sync.Pool{New: func() any { return new(http.Client) }}

// The pooled object is the client, not the request: Do does not hand it
// off (smallstep/certificates' poolhttp).
func pooledClient(req *http.Request) error {
	hc := clientPool.Get().(*http.Client)
	resp, err := hc.Do(req)
	clientPool.Put(hc)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type encoder struct {
	blocks chan *encoder
}

// Flush hands its receiver to the encoder's own worker goroutine, which
// the type synchronises with in ways a summary does not see: a method
// handing off its receiver is not a hand-off for callers (klauspost's
// zstd.Encoder.Close, as used by fasthttp).
func (e *encoder) Flush() {
	e.blocks <- e
}

var encPool = sync.Pool{New: func() any { return &encoder{blocks: make(chan *encoder, 1)} }}

func flushThenPut() {
	e := encPool.Get().(*encoder)
	e.Flush()
	encPool.Put(e)
}

// Upload hands buf to a worker and returns early when the context is
// cancelled, while the worker may still read buf.
func Upload(ctx context.Context, buf *bytes.Buffer, send func(*bytes.Buffer) error) error { // want Upload:`pool:handoff\(1\)`
	errc := make(chan error, 1)
	go func() { errc <- send(buf) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-errc:
		return err
	}
}

func uploadPooled(ctx context.Context, send func(*bytes.Buffer) error) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBody(buf)
	return Upload(ctx, buf, send) // want `buf is handed to Upload, which passes it on to a user that outlives the call`
}

// UploadWait always waits for the worker: not a hand-off.
func UploadWait(ctx context.Context, buf *bytes.Buffer, send func(*bytes.Buffer) error) error {
	errc := make(chan error, 1)
	go func() { errc <- send(buf) }()
	return <-errc
}

func uploadWaited(ctx context.Context, send func(*bytes.Buffer) error) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBody(buf)
	return UploadWait(ctx, buf, send)
}

// A hand-off to a goroutine, then a Put on the path where the context was
// cancelled first.
func cancelThenPut(ctx context.Context, work chan *bytes.Buffer, done chan struct{}) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	work <- buf
	select {
	case <-ctx.Done():
	case <-done:
	}
	putBody(buf) // want `buf is put back into the pool while the receiver of the channel send`
}

// Waiting for the worker on every path: fine.
func waitThenPut(work chan *bytes.Buffer, done, stop chan struct{}) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	work <- buf
	select {
	case <-stop:
	case <-done:
	}
	putBody(buf)
}

// uploadFlagged defers a Put that it skips on the path where Upload
// returned while the worker may still hold buf: the flag is set after
// the hand-off, exactly then (projectdiscovery/nuclei#7378).
func uploadFlagged(ctx context.Context, send func(*bytes.Buffer) error) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	abandoned := false
	defer func() {
		if abandoned || buf.Cap() > 64<<10 {
			return
		}
		bodyPool.Put(buf)
	}()
	buf.Reset()
	if err := Upload(ctx, buf, send); err != nil {
		if ctx.Err() != nil {
			abandoned = true
		}
		return err
	}
	return nil
}

// uploadFlaggedBefore sets its flag only before the hand-off: the Put
// still runs while the worker holds buf.
func uploadFlaggedBefore(ctx context.Context, send func(*bytes.Buffer) error, keep bool) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	skip := false
	defer func() {
		if skip || buf.Cap() > 64<<10 {
			return
		}
		bodyPool.Put(buf)
	}()
	if keep {
		skip = true
	}
	buf.Reset()
	return Upload(ctx, buf, send) // want `buf is handed to Upload, which passes it on to a user that outlives the call`
}
