// Package bug reproduces the shape of base/op-enclave#106
// (https://github.com/base/op-enclave/pull/106): the enclave's HTTP-to-vsock
// proxy keeps connections in a sync.Pool whose New returns nil when dialing
// fails, and the handler asserts pool.Get().(*vsock.Conn) without comma-ok.
// When the service is down, Get returns a nil interface, the assertion panics
// and the whole proxy crashes (the nil check after it never runs). Here a
// unix socket stands in for vsock.
//
// Check: typemismatch (Get asserted without comma-ok to a type the pool's
// New does not always return: on a dial error New returns an untyped nil; the
// report is at the assertion. The pool is a local variable, not a
// package-level pool or a field, which the docs do not mention.)
package bug

import (
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
)

// NewProxy returns a small HTTP handler that forwards POST bodies to a local
// socket service and relays its JSON answer, reusing connections through a
// sync.Pool.
func NewProxy(socketPath string) http.HandlerFunc {
	pool := sync.Pool{
		New: func() any {
			conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: socketPath, Net: "unix"})
			if err != nil {
				log.Printf("Error dialing socket: %v", err)
				return nil
			}
			return conn
		},
	}

	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusOK)
			return
		}
		req, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		_ = r.Body.Close()

		conn := pool.Get().(*net.UnixConn) // want `typemismatch`
		if conn == nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		defer pool.Put(conn)

		if _, err := conn.Write(req); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		dec := json.NewDecoder(conn)
		dec.UseNumber()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		_, _ = w.Write(raw)
	}
}
