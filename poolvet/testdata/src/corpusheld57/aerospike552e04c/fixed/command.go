package fixed

import (
	"encoding/binary"
	"errors"
	"io"
)

const (
	particleInteger = 1
	particleString  = 3
	particleBlob    = 4
	particleMap     = 19
	particleList    = 20
)

var bufPool = NewBufferPool(512, 16*1024, 128*1024)

// Record is the result of a read command.
type Record struct {
	Bins map[string]interface{}
}

type readCommand struct {
	conn       io.Reader
	dataBuffer []byte
	record     *Record
}

func (cmd *readCommand) execute() error {
	// Draw a buffer from buffer pool, and make sure it will be put back
	cmd.dataBuffer = bufPool.Get()

	// Parse results.
	if err := cmd.parseResult(); err != nil {
		return err
	}

	// put back buffer to the pool
	bufPool.Put(cmd.dataBuffer)

	// command has completed successfully.  Exit method.
	return nil
}

func (cmd *readCommand) parseResult() error {
	if _, err := io.ReadFull(cmd.conn, cmd.dataBuffer[:4]); err != nil {
		return err
	}
	receiveSize := int(binary.BigEndian.Uint32(cmd.dataBuffer))
	if receiveSize > len(cmd.dataBuffer) {
		return errors.New("message too large")
	}
	if _, err := io.ReadFull(cmd.conn, cmd.dataBuffer[:receiveSize]); err != nil {
		return err
	}
	rec, err := cmd.parseRecord(receiveSize)
	if err != nil {
		return err
	}
	cmd.record = rec
	return nil
}

func (cmd *readCommand) parseRecord(size int) (*Record, error) {
	bins := map[string]interface{}{}
	receiveOffset := 0
	for receiveOffset+8 <= size {
		opSize := int(binary.BigEndian.Uint32(cmd.dataBuffer[receiveOffset:]))
		particleType := int(cmd.dataBuffer[receiveOffset+5])
		nameSize := int(cmd.dataBuffer[receiveOffset+7])
		name := string(cmd.dataBuffer[receiveOffset+8 : receiveOffset+8+nameSize])
		receiveOffset += 4 + 4 + nameSize

		particleBytesSize := opSize - (4 + nameSize)
		value, err := bytesToParticle(particleType, cmd.dataBuffer, receiveOffset, particleBytesSize)
		if err != nil {
			return nil, err
		}
		receiveOffset += particleBytesSize
		bins[name] = value
	}
	return &Record{Bins: bins}, nil
}

// Get reads one record; the returned record is owned by the caller.
func Get(conn io.Reader) (*Record, error) {
	cmd := &readCommand{conn: conn}
	if err := cmd.execute(); err != nil {
		return nil, err
	}
	return cmd.record, nil
}

func bytesToParticle(ptype int, buf []byte, offset int, length int) (interface{}, error) {
	switch ptype {
	case particleInteger:
		return int64(binary.BigEndian.Uint64(buf[offset:])), nil

	case particleString:
		return string(buf[offset : offset+length]), nil

	case particleBlob:
		newObj := make([]byte, length)
		copy(newObj, buf[offset:offset+length])
		return newObj, nil

	case particleList:
		return newUnpacker(buf, offset, length).UnpackList()

	case particleMap:
		return newUnpacker(buf, offset, length).UnpackMap()
	}
	return nil, nil
}
