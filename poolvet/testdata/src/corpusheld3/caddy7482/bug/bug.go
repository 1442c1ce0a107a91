// Package bug reproduces the shape of caddyserver/caddy#7482
// (https://github.com/caddyserver/caddy/pull/7482): caddy's handlers (the
// admin /load endpoint among them) read request bodies into *bytes.Buffers
// from a package sync.Pool and always put them back, so after a burst of
// large bodies the pool kept the grown buffers and memory was not reclaimed.
//
// Check: unbounded (deferred Put of a *bytes.Buffer grown by io.Copy from a
// request body, no size check).
package bug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

var bufPool = sync.Pool{
	New: func() any { return new(bytes.Buffer) },
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
	defer bufPool.Put(buf) // want `unbounded`

	if _, err := io.Copy(buf, r.Body); err != nil {
		return fmt.Errorf("reading request body: %v", err)
	}
	body := bytes.Clone(buf.Bytes())
	return load(body)
}
