// Package bug is the fixed twin of seaweedfs/seaweedfs#9278 (https://github.com/seaweedfs/seaweedfs/pull/9278,
// issue #9275): the FUSE server reads each request into a buffer taken from a sync.Pool, hands
// the handler slices of that buffer, and puts the buffer back once the handler returns.
// WFS.SetXAttr stored the caller's data slice straight into entry.Extended. With an open file
// handle the entry is only marked dirty and persisted later by flushMetadataToFiler, so the next
// request that reused the pooled buffer silently overwrote the stored xattr value before it was
// shipped to the filer. The fix copies the bytes before storing them.
// Check: useafterput (none expected here).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const (
	XATTR_PREFIX         = "xattr-"
	MAX_XATTR_NAME_SIZE  = 255
	MAX_XATTR_VALUE_SIZE = 65536
	maxRequestSize       = 128 * 1024

	opSetXAttr = 21
	opFlush    = 25
)

type Status int32

const (
	OK     Status = 0
	ENOENT Status = 2
	EINVAL Status = 22
	ERANGE Status = 34
)

type SetXAttrIn struct {
	NodeId uint64
	Flags  uint32
}

// RawFileSystem is what the server dispatches requests to.
type RawFileSystem interface {
	SetXAttr(cancel <-chan struct{}, input *SetXAttrIn, attr string, data []byte) Status
	Flush(nodeID uint64) Status
}

// ---- server side (go-fuse) ----

var readPool = sync.Pool{New: func() any {
	b := make([]byte, maxRequestSize)
	return &b
}}

type Server struct {
	dev    io.Reader
	fs     RawFileSystem
	cancel chan struct{}
}

func (ms *Server) readRequest() (*[]byte, []byte, error) {
	bufp := readPool.Get().(*[]byte)
	n, err := ms.dev.Read(*bufp)
	if err != nil {
		readPool.Put(bufp)
		return nil, nil, err
	}
	return bufp, (*bufp)[:n], nil
}

func (ms *Server) returnRequest(bufp *[]byte) {
	readPool.Put(bufp)
}

// handleRequest decodes: opcode(4) nodeid(8) flags(4) namelen(4) name value.
func (ms *Server) handleRequest() (Status, error) {
	bufp, in, err := ms.readRequest()
	if err != nil {
		return OK, err
	}
	defer ms.returnRequest(bufp)

	if len(in) < 20 {
		return EINVAL, errors.New("short request")
	}
	op := binary.LittleEndian.Uint32(in[0:4])
	node := binary.LittleEndian.Uint64(in[4:12])
	switch op {
	case opSetXAttr:
		flags := binary.LittleEndian.Uint32(in[12:16])
		nameLen := int(binary.LittleEndian.Uint32(in[16:20]))
		if 20+nameLen > len(in) {
			return EINVAL, nil
		}
		attr := string(in[20 : 20+nameLen])
		data := in[20+nameLen:]
		return ms.fs.SetXAttr(ms.cancel, &SetXAttrIn{NodeId: node, Flags: flags}, attr, data), nil
	case opFlush:
		return ms.fs.Flush(node), nil
	}
	return EINVAL, nil
}

// ---- file system side (weed mount) ----

type Entry struct {
	Name     string
	Extended map[string][]byte
}

type FileHandle struct {
	entryLock     sync.Mutex
	entry         *Entry
	dirtyMetadata bool
}

type Filer interface {
	UpdateEntry(path string, extended map[string][]byte) error
}

type WFS struct {
	mu      sync.Mutex
	entries map[uint64]*Entry
	paths   map[uint64]string
	handles map[uint64]*FileHandle
	filer   Filer
}

func (wfs *WFS) maybeReadEntry(node uint64) (string, *FileHandle, *Entry, Status) {
	wfs.mu.Lock()
	defer wfs.mu.Unlock()
	if fh, ok := wfs.handles[node]; ok {
		return wfs.paths[node], fh, fh.entry, OK
	}
	entry, ok := wfs.entries[node]
	if !ok {
		return "", nil, nil, ENOENT
	}
	return wfs.paths[node], nil, entry, OK
}

func (wfs *WFS) saveEntry(path string, entry *Entry) Status {
	if err := wfs.filer.UpdateEntry(path, entry.Extended); err != nil {
		return EINVAL
	}
	return OK
}

// SetXAttr writes an extended attribute.
func (wfs *WFS) SetXAttr(cancel <-chan struct{}, input *SetXAttrIn, attr string, data []byte) Status {
	if len(attr) > MAX_XATTR_NAME_SIZE || len(data) > MAX_XATTR_VALUE_SIZE {
		return ERANGE
	}
	if len(attr) == 0 {
		return EINVAL
	}

	path, fh, entry, status := wfs.maybeReadEntry(input.NodeId)
	if status != OK {
		return status
	}
	if fh != nil {
		fh.entryLock.Lock()
		defer fh.entryLock.Unlock()
	}

	if entry.Extended == nil {
		entry.Extended = make(map[string][]byte)
	}
	oldData := entry.Extended[XATTR_PREFIX+attr]
	switch input.Flags {
	case 1: // XATTR_CREATE
		if len(oldData) > 0 {
			break
		}
		fallthrough
	case 2: // XATTR_REPLACE
		fallthrough
	default:
		// data aliases the request's pooled input buffer, which is recycled once this
		// handler returns: copy before storing.
		entry.Extended[XATTR_PREFIX+attr] = append([]byte(nil), data...)
	}

	if fh != nil {
		fh.dirtyMetadata = true
		return OK
	}

	return wfs.saveEntry(path, entry)
}

// Flush persists deferred metadata of an open handle (flushMetadataToFiler).
func (wfs *WFS) Flush(node uint64) Status {
	path, fh, entry, status := wfs.maybeReadEntry(node)
	if status != OK || fh == nil {
		return status
	}
	fh.entryLock.Lock()
	defer fh.entryLock.Unlock()
	if !fh.dirtyMetadata {
		return OK
	}
	fh.dirtyMetadata = false
	return wfs.saveEntry(path, entry)
}

// Serve runs the request loop until the device is exhausted.
func Serve(dev io.Reader, wfs *WFS) error {
	ms := &Server{dev: dev, fs: wfs, cancel: make(chan struct{})}
	for {
		if _, err := ms.handleRequest(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
