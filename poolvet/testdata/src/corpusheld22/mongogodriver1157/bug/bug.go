// Package bug reproduces the shape of mongodb/mongo-go-driver#1157
// (https://github.com/mongodb/mongo-go-driver/pull/1157, GODRIVER-2677
// "Improve memory pooling"): the driver shares one memoryPool of *[]byte
// between Operation.Execute (wire message buffer, capped at 16MiB before the
// Put) and decompressWireMessage, which copies every OP_COMPRESSED payload
// into a pooled slice, replacing it with make([]byte, msglen) whenever the
// payload is larger, and puts it back from a deferred closure with no size
// bound. One large compressed reply leaves a reply-sized slice in the pool.
// Check: unbounded (the deferred Put in decompressWireMessage).
package bug

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const (
	OpCompressed int32 = 2012
	OpMsg        int32 = 2013
)

var memoryPool = sync.Pool{
	New: func() interface{} {
		// Start with 1kb buffers.
		b := make([]byte, 1024)
		// Return a pointer as the static analysis tool suggests.
		return &b
	},
}

type Connection interface {
	WriteWireMessage(ctx context.Context, wm []byte) error
	ReadWireMessage(ctx context.Context, dst []byte) ([]byte, error)
}

type Operation struct {
	Command []byte
	conn    Connection
	Result  func([]byte) error
}

func appendHeader(dst []byte, length, reqid, respto, opcode int32) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(length))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(reqid))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(respto))
	return binary.LittleEndian.AppendUint32(dst, uint32(opcode))
}

func readHeader(src []byte) (length, reqid, respto, opcode int32, rem []byte, ok bool) {
	if len(src) < 16 {
		return 0, 0, 0, 0, src, false
	}
	length = int32(binary.LittleEndian.Uint32(src))
	reqid = int32(binary.LittleEndian.Uint32(src[4:]))
	respto = int32(binary.LittleEndian.Uint32(src[8:]))
	opcode = int32(binary.LittleEndian.Uint32(src[12:]))
	return length, reqid, respto, opcode, src[16:], true
}

// Execute runs this operation.
func (op Operation) Execute(ctx context.Context) error {
	wm := memoryPool.Get().(*[]byte)
	defer func() {
		// Proper usage of a sync.Pool requires each entry to have approximately the same memory
		// cost. We limit the size to 16MiB because that's the maximum wire message size
		// supported by MongoDB.
		if cap(*wm) > 16*1024*1024 {
			return
		}
		memoryPool.Put(wm)
	}()

	*wm = op.createWireMessage((*wm)[:0])

	var res []byte
	var err error
	res, *wm, err = op.roundTrip(ctx, op.conn, *wm)
	if err != nil {
		return err
	}
	if op.Result != nil {
		return op.Result(res)
	}
	return nil
}

func (op Operation) createWireMessage(dst []byte) []byte {
	dst = appendHeader(dst, int32(16+len(op.Command)), 1, 0, OpMsg)
	return append(dst, op.Command...)
}

// roundTrip writes a wiremessage to the connection and then reads a wiremessage. The wm parameter
// is reused when reading the wiremessage.
func (op Operation) roundTrip(ctx context.Context, conn Connection, wm []byte) (result, pooledSlice []byte, err error) {
	err = conn.WriteWireMessage(ctx, wm)
	if err != nil {
		return nil, wm, err
	}
	return op.readWireMessage(ctx, conn, wm)
}

func (op Operation) readWireMessage(ctx context.Context, conn Connection, wm []byte) (result, pooledSlice []byte, err error) {
	wm, err = conn.ReadWireMessage(ctx, wm[:0])
	if err != nil {
		return nil, wm, err
	}

	// decompress wiremessage
	wm, err = op.decompressWireMessage(wm)
	if err != nil {
		return nil, wm, err
	}

	// Copy the body to extend its lifetime; wm will be added back to the memory pool and reused.
	res := make([]byte, len(wm)-16)
	copy(res, wm[16:])
	return res, wm, nil
}

// decompressWireMessage handles decompressing a wiremessage. If the wiremessage
// is not compressed, this method will return the wiremessage.
func (Operation) decompressWireMessage(wm []byte) ([]byte, error) {
	// read the header and ensure this is a compressed wire message
	length, reqid, respto, opcode, rem, ok := readHeader(wm)
	if !ok || len(wm) < int(length) {
		return nil, errors.New("malformed wire message: insufficient bytes")
	}
	if opcode != OpCompressed {
		return wm, nil
	}
	// original opcode (4) + uncompressed size (4) + compressor ID (1)
	if len(rem) < 9 {
		return nil, errors.New("malformed OP_COMPRESSED: missing fields")
	}
	opcode = int32(binary.LittleEndian.Uint32(rem))
	uncompressedSize := int32(binary.LittleEndian.Uint32(rem[4:]))
	compressedSize := length - 25 // header (16) + original opcode (4) + uncompressed size (4) + compressor ID (1)
	if compressedSize < 0 || int(compressedSize) > len(rem)-9 {
		return nil, errors.New("malformed OP_COMPRESSED: insufficient bytes for compressed wiremessage")
	}
	msg := rem[9 : 9+compressedSize]

	// Copy msg, which is a subslice of wm. wm will be used to store the return value of the decompressed message.
	b := memoryPool.Get().(*[]byte)
	msglen := len(msg)
	if len(*b) < msglen {
		*b = make([]byte, msglen)
	}
	copy(*b, msg)
	defer func() {
		memoryPool.Put(b) // want `unbounded`
	}()

	if l := int(uncompressedSize) + 16; cap(wm) < l {
		wm = make([]byte, 0, l)
	}
	wm = appendHeader(wm[:0], uncompressedSize+16, reqid, respto, opcode)
	uncompressed, err := decompressPayload((*b)[0:msglen])
	if err != nil {
		return nil, err
	}
	wm = append(wm, uncompressed...)

	return wm, nil
}

func decompressPayload(in []byte) ([]byte, error) {
	r, err := zlib.NewReader(bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
