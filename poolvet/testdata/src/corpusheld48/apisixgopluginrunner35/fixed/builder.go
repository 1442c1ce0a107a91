package fixed

import (
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
)

// Builder is the part of github.com/google/flatbuffers/go.Builder that
// matters here: the finished message lives at the tail of Bytes, and Reset
// keeps the backing array so the next user builds over it.
type Builder struct {
	Bytes []byte
	head  int
}

func NewBuilder(initialSize int) *Builder {
	b := &Builder{Bytes: make([]byte, initialSize)}
	b.head = initialSize
	return b
}

func (b *Builder) Reset() {
	if b.Bytes != nil {
		b.Bytes = b.Bytes[:cap(b.Bytes)]
	}
	b.head = len(b.Bytes)
}

// PrependBytes stands in for the generated table builders.
func (b *Builder) PrependBytes(p []byte) {
	for len(p) > b.head {
		grown := make([]byte, 2*len(b.Bytes)+len(p))
		copy(grown[len(grown)-(len(b.Bytes)-b.head):], b.Bytes[b.head:])
		b.head += len(grown) - len(b.Bytes)
		b.Bytes = grown
	}
	b.head -= len(p)
	copy(b.Bytes[b.head:], p)
}

func (b *Builder) FinishedBytes() []byte {
	return b.Bytes[b.head:]
}

// internal/util/pool.go

var builderPool = sync.Pool{
	New: func() interface{} {
		return NewBuilder(256)
	},
}

func GetBuilder() *Builder {
	return builderPool.Get().(*Builder)
}

func PutBuilder(b *Builder) {
	b.Reset()
	builderPool.Put(b)
}

// internal/util/msg.go

const (
	HeaderLen   = 4
	MaxDataSize = 2<<24 - 1
)

const (
	RPCError = iota
	RPCPrepareConf
	RPCHTTPReqCall
	RPCExtraInfo
	RPCTest = 127 // used only in test
)

var ErrNotFound = errors.New("not found")

func ReadErr(n int, err error, required int) bool {
	if 0 < n && n < required {
		err = fmt.Errorf("truncated, only get the first %d bytes", n)
	}
	if err != nil {
		if err != io.EOF {
			log.Printf("read: %s", err)
		}
		return true
	}
	return false
}

func WriteErr(n int, err error) {
	if err != nil {
		log.Printf("write: %s", err)
	}
}

// internal/server/error.go

type UnknownType struct {
	ty byte
}

func (err UnknownType) Error() string {
	return fmt.Sprintf("unknown type %d", err.ty)
}

func ReportError(err error) *Builder {
	builder := GetBuilder()
	var code byte
	switch err {
	case ErrNotFound:
		code = 1
	default:
		switch err.(type) {
		case UnknownType:
			code = 0
		default:
			code = 2
		}
	}
	builder.PrependBytes([]byte{code})
	return builder
}

// plugin entry points (internal/plugin)

func PrepareConf(in []byte) (*Builder, error) {
	b := GetBuilder()
	b.PrependBytes(in)
	return b, nil
}

func HTTPReqCall(in []byte) (*Builder, error) {
	b := GetBuilder()
	b.PrependBytes(in)
	return b, nil
}
