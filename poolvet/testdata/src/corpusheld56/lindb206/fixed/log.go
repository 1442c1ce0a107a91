package fixed

import (
	"fmt"
	"reflect"
)

// ---- kv/version ----

// Log represents an edit log entry.
type Log interface {
	Encode() ([]byte, error)
}

// FileMeta is the metadata of a sst file.
type FileMeta struct {
	fileNumber int64
	minKey     uint32
	maxKey     uint32
	fileSize   int32
}

// NewFile add new file into metadata
type NewFile struct {
	level int32
	file  *FileMeta
}

// Encode writes new file data to binary, if error return err
func (n *NewFile) Encode() ([]byte, error) {
	writer := NewBufferWriter(nil)
	writer.PutVarint32(n.level)           // level
	writer.PutVarint64(n.file.fileNumber) // file number
	writer.PutUvarint32(n.file.minKey)    // min key
	writer.PutUvarint32(n.file.maxKey)    // max key
	writer.PutVarint32(n.file.fileSize)   // file size
	return writer.Bytes()
}

// logTypes maps a log implementation to its type code.
var logTypes = map[reflect.Type]int32{
	reflect.TypeOf(&NewFile{}): 1,
}

// EditLog contains all metadata edit log
type EditLog struct {
	logs     []Log
	familyID int
}

// marshal encodes edit log to binary data
func (el *EditLog) marshal() ([]byte, error) {
	writer := NewBufferWriter(nil)
	// write family id
	writer.PutVarint32(int32(el.familyID))
	// write num of logs
	writer.PutUvarint64(uint64(len(el.logs)))
	// write detail log data
	for _, log := range el.logs {
		logType := logTypes[reflect.TypeOf(log)]
		writer.PutVarint32(logType)
		value, err := log.Encode()
		if err != nil {
			return nil, fmt.Errorf("edit logs encode error: %s", err)
		}
		writer.PutUvarint32(uint32(len(value))) // write log bytes length
		writer.PutBytes(value)                  // write log bytes data
	}
	return writer.Bytes()
}
