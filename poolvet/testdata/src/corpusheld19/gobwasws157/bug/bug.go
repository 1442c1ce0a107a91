// Package bug reproduces the shape of gobwas/ws#157 (https://github.com/gobwas/ws/issues/157):
// Dialer.Upgrade reads the handshake response through a *bufio.Reader taken
// from the pbufio reader pool and defers a closure that puts the reader back
// when nothing is left buffered. Header lines are read with ReadSlice, so
// their bytes live in the pooled reader's buffer; matchSelectedExtensions
// appended the option parsed from the Sec-WebSocket-Extensions line - its
// Name and Parameters still slices of that buffer - to hs.Extensions. The
// Handshake returned to the caller therefore points into a reader that is
// already back in the pool and reused by the next dial. The fix (commit
// 417ec07) appends the client's own option and copies the parameters.
// Check: useafterput (the returned Handshake holds views of the pooled
// reader's buffer that the deferred PutReader recycles; reported at the
// return that leaks them).
package bug

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// pbufio: pooled bufio.Readers.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// GetReader takes a reader from the pool and resets it onto r.
func GetReader(r io.Reader) *bufio.Reader {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	return br
}

// PutReader returns br to the pool.
func PutReader(br *bufio.Reader) {
	br.Reset(nil)
	readerPool.Put(br)
}

// Parameters are extension parameters as key/value byte slices.
type Parameters struct {
	pairs [][2][]byte
}

// Set adds a parameter.
func (p *Parameters) Set(k, v []byte) { p.pairs = append(p.pairs, [2][]byte{k, v}) }

// Size is the number of bytes needed to copy the parameters.
func (p Parameters) Size() (n int) {
	for _, kv := range p.pairs {
		n += len(kv[0]) + len(kv[1])
	}
	return n
}

// Copy copies the parameters into dst and returns a copy that uses it.
func (p Parameters) Copy(dst []byte) (Parameters, []byte) {
	var c Parameters
	for _, kv := range p.pairs {
		k := append(dst[:0:0], kv[0]...)
		v := append(dst[:0:0], kv[1]...)
		c.pairs = append(c.pairs, [2][]byte{k, v})
	}
	return c, dst
}

// Option is one Sec-WebSocket-Extensions entry.
type Option struct {
	Name       []byte
	Parameters Parameters
}

// Handshake is the result of the upgrade.
type Handshake struct {
	Protocol   string
	Extensions []Option
}

var (
	// ErrHandshakeBadExtensions is returned for non-requested extensions.
	ErrHandshakeBadExtensions = errors.New("unexpected extensions in handshake")
	// ErrMalformedResponse is returned for unparsable responses.
	ErrMalformedResponse = errors.New("malformed HTTP response")
)

// Dialer upgrades client connections.
type Dialer struct {
	Protocols  []string
	Extensions []Option
}

func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

func parseHeaderLine(line []byte) (k, v []byte, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return nil, nil, false
	}
	return bytes.TrimSpace(line[:i]), bytes.TrimSpace(line[i+1:]), true
}

// Upgrade reads the server handshake response from conn.
func (d Dialer) Upgrade(conn io.Reader) (br *bufio.Reader, hs Handshake, err error) {
	br = GetReader(conn)
	defer func() {
		if br.Buffered() == 0 || err != nil {
			// No additional bytes from the server: give the reader back.
			PutReader(br)
			br = nil
		}
	}()

	if _, err = readLine(br); err != nil { // status line
		return br, hs, err
	}
	for {
		line, e := readLine(br)
		if e != nil {
			err = e
			return br, hs, err
		}
		if len(line) == 0 {
			break
		}
		k, v, ok := parseHeaderLine(line)
		if !ok {
			err = ErrMalformedResponse
			return br, hs, err
		}
		switch string(k) {
		case "Sec-Websocket-Protocol":
			for _, want := range d.Protocols {
				if string(v) == want {
					hs.Protocol = want
					break
				}
			}
		case "Sec-Websocket-Extensions":
			hs.Extensions, err = matchSelectedExtensions(v, d.Extensions, hs.Extensions)
			if err != nil {
				return br, hs, err
			}
		}
	}
	return br, hs, err // want `useafterput`
}

func matchSelectedExtensions(selected []byte, wanted, received []Option) ([]Option, error) {
	for _, ext := range bytes.Split(selected, []byte{','}) {
		parts := bytes.Split(bytes.TrimSpace(ext), []byte{';'})
		option := Option{Name: bytes.TrimSpace(parts[0])}
		for _, p := range parts[1:] {
			kv := bytes.SplitN(bytes.TrimSpace(p), []byte{'='}, 2)
			if len(kv) == 2 {
				option.Parameters.Set(kv[0], kv[1])
			} else {
				option.Parameters.Set(kv[0], nil)
			}
		}
		matched := false
		for _, want := range wanted {
			if bytes.Equal(option.Name, want.Name) {
				// Move the parsed extension to the result to avoid an
				// allocation.
				received = append(received, option)
				matched = true
				break
			}
		}
		if !matched {
			return received, ErrHandshakeBadExtensions
		}
	}
	return received, nil
}
