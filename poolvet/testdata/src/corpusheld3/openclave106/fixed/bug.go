// Package fixed is op-enclave#106 after the fix: the two-value assertion, and
// a nil check, turn a failed dial into a 500 instead of a panic.
package fixed

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

		conn, ok := pool.Get().(*net.UnixConn)
		if !ok || conn == nil {
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
