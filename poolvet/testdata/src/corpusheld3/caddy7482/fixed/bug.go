// Package fixed is caddyserver/caddy#7482 with the PR's fix: a putBuf
// helper returns a buffer to the pool only if its capacity is at most
// maxBufferSize (64KB), otherwise it is left to the garbage collector.
package fixed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

const maxBufferSize = 64 * 1024

var bufPool = sync.Pool{
	New: func() any { return new(bytes.Buffer) },
}

func putBuf(buf *bytes.Buffer) {
	if buf.Cap() > maxBufferSize {
		return
	}
	bufPool.Put(buf)
}

type Config struct {
	Apps map[string]json.RawMessage `json:"apps"`
}

var current Config

func load(body []byte) error {
	var cfg Config
	if err := json.Unmarshal(body, &cfg); err != nil {
		return err
	}
	current = cfg
	return nil
}

// handleLoad replaces the running configuration with the request body.
func handleLoad(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodPost {
		return fmt.Errorf("method not allowed")
	}

	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer putBuf(buf)

	if _, err := io.Copy(buf, r.Body); err != nil {
		return fmt.Errorf("reading request body: %v", err)
	}
	body := bytes.Clone(buf.Bytes())
	return load(body)
}
