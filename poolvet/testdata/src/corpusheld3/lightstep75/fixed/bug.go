// Package fixed is lightstep-tracer-go#75 after the fix: a sync.Once inside
// bufferCloser makes Close put the buffer back at most once.
package fixed

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
)

const maxPooledBuffer = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// THttpClient is a Thrift transport that POSTs each message.
type THttpClient struct {
	responseBuffer *bytes.Buffer
	url            *url.URL
	requestBuffer  *bytes.Buffer
	header         http.Header
	httpClient     *http.Client
}

func NewTHttpPostClient(urlstr string) (*THttpClient, error) {
	u, err := url.Parse(urlstr)
	if err != nil {
		return nil, err
	}
	return &THttpClient{
		url:           u,
		requestBuffer: getBuffer(),
		header:        http.Header{},
		httpClient:    http.DefaultClient,
	}, nil
}

func (p *THttpClient) Write(buf []byte) (int, error) {
	return p.requestBuffer.Write(buf)
}

func (p *THttpClient) Read(buf []byte) (int, error) {
	if p.responseBuffer == nil {
		return 0, io.EOF
	}
	return p.responseBuffer.Read(buf)
}

// bufferCloser makes the request buffer an io.ReadCloser; the transport
// closes the body when it is done with it, which resets the buffer and gives
// it back to the pool, once, however many times Close is called.
type bufferCloser struct {
	once sync.Once
	*bytes.Buffer
}

func (b *bufferCloser) Close() error {
	b.once.Do(func() {
		if b.Buffer.Cap() > maxPooledBuffer {
			return
		}
		b.Reset()
		bufPool.Put(b.Buffer)
	})
	return nil
}

// Flush sends the buffered request and reads the response.
func (p *THttpClient) Flush() error {
	req, err := http.NewRequest("POST", p.url.String(), &bufferCloser{Buffer: p.requestBuffer})
	if err != nil {
		return err
	}
	// The old request buffer now belongs to the request body.
	p.requestBuffer = getBuffer()
	p.responseBuffer = nil

	req.Header = p.header
	p.header = make(http.Header, len(req.Header))
	for k, v := range req.Header {
		p.header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-thrift")

	response, err := p.httpClient.Do(req)
	if response != nil && response.Body != nil {
		defer response.Body.Close()
	}
	if err != nil {
		return err
	}
	if response.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP response code: %d", response.StatusCode)
	}
	bs, err := io.ReadAll(response.Body)
	if err != nil {
		return err
	}
	p.responseBuffer = bytes.NewBuffer(bs)
	return nil
}
