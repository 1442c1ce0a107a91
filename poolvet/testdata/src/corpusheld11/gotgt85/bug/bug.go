// Package bug reproduces the shape of gostor/gotgt#85
// (https://github.com/gostor/gotgt/pull/85, commit 791e74f "don't use pool
// to allocate buffers"): pkg/util/pool kept one sync.Pool for iSCSI data
// buffers of every size. NewBuffer re-pointed the pool's New at a make of
// the size the caller asked for (racing with Get), so the pool mixed
// buffers of any length, and ReleaseBuffer put them back whatever their
// size, as bare slices. The PR removed the pool: it is not suitable for
// slices of different sizes.
//
// Check: unbounded (variable-size []byte, sized by the caller, put back with
// no cap bound); the same Put also boxes a slice value (nonpointer), so both
// are expected on that line.
package bug

import "sync"

var bytePool sync.Pool = sync.Pool{}

// NewBuffer returns a buffer meant to be size bytes long.
func NewBuffer(size int) []byte {
	bytePool.New = func() any {
		return make([]byte, size)
	}
	return bytePool.Get().([]byte)
}

// ReleaseBuffer hands a buffer of any size back.
func ReleaseBuffer(b []byte) {
	bytePool.Put(b) // want `unbounded` `nonpointer`
}

type SCSICommand struct {
	RawData []byte
}

// readPDU reads the data segment of a command into a pooled buffer.
func readPDU(read func([]byte) (int, error), dataLen, padding int) (*SCSICommand, error) {
	dl := ((dataLen + padding - 1) / padding) * padding
	cmd := &SCSICommand{RawData: NewBuffer(dl)}
	n := 0
	for n < dl {
		l, err := read(cmd.RawData[n:])
		if err != nil {
			return nil, err
		}
		n += l
	}
	return cmd, nil
}
