// Package bug reproduces the shape of Netflix/rend#121
// (https://github.com/Netflix/rend/pull/121): the memcached binary-protocol
// code kept request headers in sync.Pools of struct values, not pointers.
// Every Get handed out a copy and every Put copied the struct into a new
// interface allocation, so the pools saved nothing (staticcheck found it).
//
// Check: nonpointer (a struct value given to sync.Pool.Put).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

const reqHeaderLen = 24

type RequestHeader struct {
	Magic           uint8
	Opcode          uint8
	KeyLength       uint16
	ExtraLength     uint8
	DataType        uint8
	VBucket         uint16
	TotalBodyLength uint32
	OpaqueToken     uint32
	CASToken        uint64
}

var reqHeadPool = sync.Pool{New: func() any { return RequestHeader{} }}

// ReadRequestHeader parses one 24-byte request header into a pooled value.
func ReadRequestHeader(r io.Reader) (RequestHeader, error) {
	var b [reqHeaderLen]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return RequestHeader{}, err
	}
	rh := reqHeadPool.Get().(RequestHeader)
	rh.Magic = b[0]
	rh.Opcode = b[1]
	rh.KeyLength = binary.BigEndian.Uint16(b[2:4])
	rh.ExtraLength = b[4]
	rh.DataType = b[5]
	rh.VBucket = binary.BigEndian.Uint16(b[6:8])
	rh.TotalBodyLength = binary.BigEndian.Uint32(b[8:12])
	rh.OpaqueToken = binary.BigEndian.Uint32(b[12:16])
	rh.CASToken = binary.BigEndian.Uint64(b[16:24])
	return rh, nil
}

// PutRequestHeader gives the header back once the request is parsed.
func PutRequestHeader(rh RequestHeader) {
	reqHeadPool.Put(rh) // want `nonpointer`
}

// Request is what the parser hands on.
type Request struct {
	Opcode uint8
	Key    []byte
	Opaque uint32
}

// Parse reads a header and the key that follows it.
func Parse(r io.Reader) (Request, error) {
	rh, err := ReadRequestHeader(r)
	if err != nil {
		return Request{}, err
	}
	key := make([]byte, rh.KeyLength)
	if _, err := io.ReadFull(r, key); err != nil {
		PutRequestHeader(rh)
		return Request{}, err
	}
	req := Request{Opcode: rh.Opcode, Key: key, Opaque: rh.OpaqueToken}
	PutRequestHeader(rh)
	return req, nil
}
