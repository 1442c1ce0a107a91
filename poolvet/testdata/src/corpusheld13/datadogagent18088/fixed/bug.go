// Package fixed is the change made in DataDog/datadog-agent#18088
// (https://github.com/DataDog/datadog-agent/pull/18088) after review: the
// pool holds *[]byte, so Put takes a pointer and does not allocate.
package fixed

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
		b := make([]byte, maxSizeToRead)
		return &b
	},
}

var errNotFound = errors.New("build info not found")

type elfExe struct {
	r io.ReaderAt
}

func (x *elfExe) ReadDataWithPool(addr uint64, data []byte) error {
	n, err := x.r.ReadAt(data, int64(addr))
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return err
	}
	clear(data[n:])
	return nil
}

func findBuildInfo(x *elfExe, addr uint64, magic []byte) (int, error) {
	dataPtr := dataRawBuildPool.Get().(*[]byte)
	defer dataRawBuildPool.Put(dataPtr)
	data := *dataPtr
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
