// Package fixed is the fix of gostor/gotgt#85
// (https://github.com/gostor/gotgt/pull/85): no pool any more; each buffer
// is allocated at the size it needs and left to the garbage collector.
package fixed

// NewBuffer returns a buffer size bytes long.
func NewBuffer(size int) []byte {
	return make([]byte, size)
}

type SCSICommand struct {
	RawData []byte
}

// readPDU reads the data segment of a command into a fresh buffer.
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
