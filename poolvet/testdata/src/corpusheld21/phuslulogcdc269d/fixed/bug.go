// Package bug reproduces the shape of phuslu/log commit cdc269d
// (https://github.com/phuslu/log/commit/cdc269de13321abf3d98dfecb316bb0b433cb89a,
// "twak syslog writer"): SyslogWriter.WriteEntry borrows a scratch *Entry from
// the logger's epool, appends the syslog header and then the caller's whole
// encoded entry (e.buf) to the scratch buffer, stores the grown slice back in
// e1.buf and returns e1 with a plain `defer epool.Put(e1)`. Everywhere else the
// logger only puts entries back when cap(buf) <= bbcap; here one huge log
// line leaves a huge buffer in the pool. The fix replaces the deferred Put
// with a deferred closure that checks the capacity first.
//
// Check: unbounded (at the deferred epool.Put(e1) in WriteEntry).
package bug

import (
	"net"
	"strconv"
	"sync"
	"time"
)

const bbcap = 1 << 16

type Level uint32

const (
	DebugLevel Level = iota + 1
	InfoLevel
	WarnLevel
	ErrorLevel
)

type Entry struct {
	buf   []byte
	Level Level
}

var epool = sync.Pool{
	New: func() interface{} {
		return &Entry{
			buf: make([]byte, 0, 1024),
		}
	},
}

// Msg finishes an entry and recycles it, dropping oversized buffers.
func (e *Entry) Msg(w *SyslogWriter) {
	e.buf = append(e.buf, '\n')
	_, _ = w.WriteEntry(e)
	if cap(e.buf) <= bbcap {
		epool.Put(e)
	}
}

var pid = 1

// SyslogWriter is an Writer that writes logs to a syslog server.
type SyslogWriter struct {
	Network  string
	Address  string
	Hostname string
	Tag      string
	Marker   string

	mu    sync.Mutex
	conn  net.Conn
	local bool
}

func (w *SyslogWriter) connect() (err error) {
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
	w.conn, err = net.Dial(w.Network, w.Address)
	if err != nil {
		return
	}
	w.local = w.Address != "" && w.Address[0] == '/'
	return
}

// WriteEntry sends logs with priority to the syslog server.
func (w *SyslogWriter) WriteEntry(e *Entry) (n int, err error) {
	if w.conn == nil {
		w.mu.Lock()
		if w.conn == nil {
			err = w.connect()
			if err != nil {
				w.mu.Unlock()
				return
			}
		}
		w.mu.Unlock()
	}

	var priority byte
	switch e.Level {
	case DebugLevel:
		priority = '7'
	case WarnLevel:
		priority = '4'
	case ErrorLevel:
		priority = '3'
	default:
		priority = '6'
	}

	e1 := epool.Get().(*Entry)
	defer func(entry *Entry) {
		if cap(entry.buf) <= bbcap {
			epool.Put(entry)
		}
	}(e1)

	// <PRI>TIMESTAMP HOSTNAME TAG[PID]: MSG
	b := append(e1.buf[:0], '<', priority, '>')
	if w.local {
		b = time.Now().AppendFormat(b, time.Stamp)
	} else {
		b = time.Now().AppendFormat(b, time.RFC3339)
		b = append(b, ' ')
		b = append(b, w.Hostname...)
	}
	b = append(b, ' ')
	b = append(b, w.Tag...)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, ']', ':', ' ')
	b = append(b, w.Marker...)
	b = append(b, e.buf...)
	e1.buf = b

	w.mu.Lock()
	defer w.mu.Unlock()

	if w.conn != nil {
		if n, err := w.conn.Write(b); err == nil {
			return n, err
		}
	}
	if err := w.connect(); err != nil {
		return 0, err
	}
	return w.conn.Write(b)
}
