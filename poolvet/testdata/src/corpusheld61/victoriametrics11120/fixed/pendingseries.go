// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/pull/11120
// (commit dd5e1285253fc67efde406b8dd652636532b95ff, "app/vmagent: properly
// copy metadata unit value").
//
// Bug: the remote-write stream parser decompresses the request into a
// ByteBuffer from bodyBufferPool (deferred Put) and unmarshals it with
// zero-copy strings that point into that pooled buffer. vmagent's
// writeRequest.copyMetadata copies MetricFamilyName and Help into its own
// metadatabuf, but assigned Unit directly ("Direct copy for non-string
// fields"), so the pending write request kept a string backed by the pooled
// body buffer after parseRequestBody returned it to the pool, and the Unit of
// queued metadata was corrupted by later requests.
//
// Fix: Unit is copied into metadatabuf like the other string fields.
//
// Check: useafterput (dst.Unit = src.Unit stores a string aliasing the pooled
// body buffer into the long-lived pending writeRequest; the buffer is put back
// by the deferred bodyBufferPool.Put when parseRequestBody returns)
package fixed

import (
	"encoding/binary"
	"errors"
	"sync"
	"unsafe"
)

// ByteBuffer is bytesutil.ByteBuffer.
type ByteBuffer struct {
	B []byte
}

// ByteBufferPool is bytesutil.ByteBufferPool.
type ByteBufferPool struct {
	p sync.Pool
}

func (bbp *ByteBufferPool) Get() *ByteBuffer {
	bbv := bbp.p.Get()
	if bbv == nil {
		return &ByteBuffer{}
	}
	return bbv.(*ByteBuffer)
}

func (bbp *ByteBufferPool) Put(bb *ByteBuffer) {
	bb.B = bb.B[:0]
	bbp.p.Put(bb)
}

// ToUnsafeString is bytesutil.ToUnsafeString.
func ToUnsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// MetricMetadata is prompb.MetricMetadata.
type MetricMetadata struct {
	Type             uint32
	MetricFamilyName string
	Help             string
	Unit             string
	AccountID        uint32
	ProjectID        uint32
}

var errBadMetadata = errors.New("cannot unmarshal metadata")

// unmarshalMetadata is a trimmed prompb.WriteRequestUnmarshaler: the returned
// strings refer to src.
func unmarshalMetadata(dst []MetricMetadata, src []byte) ([]MetricMetadata, error) {
	for len(src) > 0 {
		var mm MetricMetadata
		var fields [3]string
		for i := range fields {
			n, k := binary.Uvarint(src)
			if k <= 0 || uint64(len(src)-k) < n {
				return dst, errBadMetadata
			}
			fields[i] = ToUnsafeString(src[k : k+int(n)])
			src = src[k+int(n):]
		}
		mm.MetricFamilyName, mm.Help, mm.Unit = fields[0], fields[1], fields[2]
		dst = append(dst, mm)
	}
	return dst, nil
}

var bodyBufferPool ByteBufferPool

func parseRequestBody(data []byte, callback func(mms []MetricMetadata) error) error {
	bb := bodyBufferPool.Get()
	defer bodyBufferPool.Put(bb)
	bb.B = append(bb.B[:0], data...)

	mms, err := unmarshalMetadata(nil, bb.B)
	if err != nil {
		return err
	}
	return callback(mms)
}

type writeRequest struct {
	mms []MetricMetadata

	// metadatabuf holds metadata data
	metadatabuf []byte
}

func (wr *writeRequest) reset() {
	clear(wr.mms)
	wr.mms = wr.mms[:0]
	wr.metadatabuf = wr.metadatabuf[:0]
}

func (wr *writeRequest) tryPushMetadata(mms []MetricMetadata) bool {
	mmdDst := wr.mms
	for i := range mms {
		mmSrc := &mms[i]
		mmdDst = append(mmdDst, MetricMetadata{})
		wr.copyMetadata(&mmdDst[len(mmdDst)-1], mmSrc)
	}
	wr.mms = mmdDst
	return true
}

func (wr *writeRequest) copyMetadata(dst, src *MetricMetadata) {
	// Direct copy for non-string fields, which are safe by value.
	dst.Type = src.Type

	dst.AccountID = src.AccountID
	dst.ProjectID = src.ProjectID

	// Pre-allocate memory for all string fields.
	neededBufLen := len(src.MetricFamilyName) + len(src.Help) + len(src.Unit)
	bufLen := len(wr.metadatabuf)
	if cap(wr.metadatabuf) < bufLen+neededBufLen {
		wr.metadatabuf = append(make([]byte, 0, bufLen+neededBufLen), wr.metadatabuf...)
	}
	buf := wr.metadatabuf[:bufLen]

	// Copy MetricFamilyName
	bufLen = len(buf)
	buf = append(buf, src.MetricFamilyName...)
	dst.MetricFamilyName = ToUnsafeString(buf[bufLen:])

	// Copy Help
	bufLen = len(buf)
	buf = append(buf, src.Help...)
	dst.Help = ToUnsafeString(buf[bufLen:])

	// Copy Unit
	bufLen = len(buf)
	buf = append(buf, src.Unit...)
	dst.Unit = ToUnsafeString(buf[bufLen:])

	wr.metadatabuf = buf
}

type pendingSeries struct {
	mu sync.Mutex
	wr writeRequest
}

func (ps *pendingSeries) TryPushMetadata(mms []MetricMetadata) bool {
	ps.mu.Lock()
	ok := ps.wr.tryPushMetadata(mms)
	ps.mu.Unlock()
	return ok
}

var errPushFailed = errors.New("cannot push metadata")

// InsertHandler is vmagent's remote-write handler.
func InsertHandler(ps *pendingSeries, data []byte) error {
	return parseRequestBody(data, func(mms []MetricMetadata) error {
		if !ps.TryPushMetadata(mms) {
			return errPushFailed
		}
		return nil
	})
}
