// Package bug reproduces the shape of DataDog/datadog-agent#18088
// (https://github.com/DataDog/datadog-agent/pull/18088, review thread on
// pkg/network/go/binversion/buildinfo.go): the Go build-info lookup reads a
// fixed 64 KiB window of the binary into a []byte kept in a sync.Pool whose
// New returns the slice itself. Putting the slice back converts it to an
// interface and allocates a slice header each time; the reviewer asked for
// a pointer to the slice, which the author then did.
//
// Check: nonpointer (a []byte value given to sync.Pool.Put).
package bug

import (
	"errors"
	"io"
	"sync"
)

const (
	buildInfoSize = 32
	maxSizeToRead = 64 * 1024 // 64KB
)

var dataRawBuildPool = sync.Pool{
	New: func() any {
		return make([]byte, maxSizeToRead)
	},
}

var errNotFound = errors.New("build info not found")

type elfExe struct {
	r io.ReaderAt
}

// ReadDataWithPool fills data with the bytes at addr.
func (x *elfExe) ReadDataWithPool(addr uint64, data []byte) error {
	n, err := x.r.ReadAt(data, int64(addr))
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return err
	}
	clear(data[n:])
	return nil
}

// findBuildInfo returns the offset of the build-info magic in the window
// at addr, using a pooled read buffer.
func findBuildInfo(x *elfExe, addr uint64, magic []byte) (int, error) {
	data := dataRawBuildPool.Get().([]byte)
	defer dataRawBuildPool.Put(data) // want `nonpointer`
	if err := x.ReadDataWithPool(addr, data); err != nil {
		return 0, err
	}
	for i := 0; i+len(magic)+buildInfoSize <= len(data); i++ {
		if string(data[i:i+len(magic)]) == string(magic) {
			return i, nil
		}
	}
	return 0, errNotFound
}
