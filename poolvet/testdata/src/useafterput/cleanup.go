package useafterput

import (
	"bytes"
	"io"
	"sync"
)

var readPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readAll returns the bytes read and a func that gives their buffer back.
func readAll(r io.Reader) ([]byte, func(), error) {
	b := readPool.Get().(*bytes.Buffer)
	b.Reset()
	if _, err := b.ReadFrom(r); err != nil {
		readPool.Put(b)
		return nil, nil, err
	}
	release := func() {
		if b.Cap() <= 1<<20 {
			readPool.Put(b)
		}
	}
	return b.Bytes(), release, nil
}

type message struct{ body []byte }

func newMessage(body []byte) *message { return &message{body: body} }

// The message keeps the bytes past the deferred cleanup (erpc/erpc#451).
func readMessage(r io.Reader) (*message, error) {
	body, release, err := readAll(r)
	if err != nil {
		return nil, err
	}
	defer release()
	return newMessage(body), nil // want `returned value shares memory with the object, which the deferred Put at line 37 gives back`
}

// A copy outlives the cleanup: silent.
func readMessageCopy(r io.Reader) (*message, error) {
	body, release, err := readAll(r)
	if err != nil {
		return nil, err
	}
	defer release()
	return newMessage(bytes.Clone(body)), nil
}
