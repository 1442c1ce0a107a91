// Package bug reproduces the shape of seaweedfs/seaweedfs#9422
// (https://github.com/seaweedfs/seaweedfs/pull/9422, part of the runaway-RSS report #6541):
// the volume server's PostHandler borrows a *bytes.Buffer from the buffer_pool helpers
// (SyncPoolGetBuffer / deferred SyncPoolPutBuffer) and hands it to ParseUpload, which
// ReadFrom()s the whole uploaded chunk into it. SyncPoolPutBuffer put every buffer back no
// matter how large it had grown, so after 64 MiB chunk uploads the pool hoarded a 64 MiB array
// per cached entry for the life of the process. The fix drops buffers whose capacity exceeds
// 4 MiB instead of pooling them. (Both twins Reset the buffer in SyncPoolPutBuffer, as the fix
// also does, so that only the size bound differs.)
// Check: unbounded (fixed twin: buffers past maxRetainedBufferCap are dropped).
package bug

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
)

// maxRetainedBufferCap bounds what goes back to the pool.
const maxRetainedBufferCap = 4 * 1024 * 1024

var syncPool = sync.Pool{
	New: func() any {
		return new(bytes.Buffer)
	},
}

func SyncPoolGetBuffer() *bytes.Buffer {
	return syncPool.Get().(*bytes.Buffer)
}

func SyncPoolPutBuffer(buffer *bytes.Buffer) {
	if buffer == nil {
		return
	}
	if buffer.Cap() > maxRetainedBufferCap {
		return
	}
	buffer.Reset()
	syncPool.Put(buffer)
}

type ParsedUpload struct {
	FileName    string
	Data        []byte
	bytesBuffer *bytes.Buffer
}

// ParseUpload reads the request body into bytesBuffer; pu.Data views the buffer.
func ParseUpload(r *http.Request, sizeLimit int64, bytesBuffer *bytes.Buffer) (*ParsedUpload, error) {
	bytesBuffer.Reset()
	pu := &ParsedUpload{bytesBuffer: bytesBuffer, FileName: r.URL.Query().Get("name")}
	n, err := pu.bytesBuffer.ReadFrom(io.LimitReader(r.Body, sizeLimit+1))
	if err != nil {
		return nil, err
	}
	if n > sizeLimit {
		return nil, errors.New("file over the limited size")
	}
	pu.Data = pu.bytesBuffer.Bytes()
	return pu, nil
}

type Needle struct {
	Name []byte
	Data []byte
}

type VolumeServer struct {
	fileSizeLimitBytes int64
	store              func(n *Needle) error
}

func (vs *VolumeServer) PostHandler(w http.ResponseWriter, r *http.Request) {
	bytesBuffer := SyncPoolGetBuffer()
	defer SyncPoolPutBuffer(bytesBuffer)

	pu, err := ParseUpload(r, vs.fileSizeLimitBytes, bytesBuffer)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	n := &Needle{Name: []byte(pu.FileName), Data: pu.Data}
	if err := vs.store(n); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
