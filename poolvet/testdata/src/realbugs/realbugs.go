// Package realbugs holds pool-misuse bugs reported in public projects,
// reduced to small functions that keep the names and control flow of the
// original code. Each bug comes as a pair: the buggy shape, which must be
// reported, and the fixed shape, which must stay silent. The comment on each
// pair names the project and the issue or pull request.
//
// The package is checked with every check but unbounded: most fixed shapes
// keep the unguarded Put of the original project, which unbounded rightly
// reports. The unbounded bugs are in package realbugsunbounded.
package realbugs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// ---- useafterput: an alias returned past a deferred Put ----

// go-resty/resty#421: noescapeJSONMarshal returned buf.Bytes() while the
// deferred releaseBuffer gave the buffer back; the fix stopped pooling it.

var bufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func releaseBuffer(buf *bytes.Buffer) {
	if buf != nil {
		buf.Reset()
		bufPool.Put(buf)
	}
}

func restyNoescapeJSONMarshal(v any) ([]byte, error) {
	buf := acquireBuffer()
	defer releaseBuffer(buf)
	encoder := json.NewEncoder(buf)
	encoder.SetEscapeHTML(false)
	err := encoder.Encode(v)
	return buf.Bytes(), err // want `returned value shares memory with buf, which the deferred Put`
}

func restyNoescapeJSONMarshalFixed(v any) ([]byte, error) {
	buf := &bytes.Buffer{}
	encoder := json.NewEncoder(buf)
	encoder.SetEscapeHTML(false)
	err := encoder.Encode(v)
	return buf.Bytes(), err
}

// containerd/go-runc#57: cmdOutput returned b.Bytes() with a deferred
// putBuf(b); the fix copies the bytes out before the buffer goes back.

var bytesBufferPool = sync.Pool{New: func() any { return bytes.NewBuffer(nil) }}

func getBuf() *bytes.Buffer { return bytesBufferPool.Get().(*bytes.Buffer) }

func putBuf(b *bytes.Buffer) {
	b.Reset()
	bytesBufferPool.Put(b)
}

type command struct{ Stdout, Stderr io.Writer }

func (c *command) run() error { return nil }

func runcCmdOutput(cmd *command, combined bool) ([]byte, error) {
	b := getBuf()
	defer putBuf(b)
	cmd.Stdout = b
	if combined {
		cmd.Stderr = b
	}
	err := cmd.run()
	return b.Bytes(), err // want `returned value shares memory with b`
}

func runcCmdOutputFixed(cmd *command, combined bool) ([]byte, error) {
	b := getBuf()
	defer putBuf(b)
	cmd.Stdout = b
	if combined {
		cmd.Stderr = b
	}
	err := cmd.run()
	out := make([]byte, b.Len())
	copy(out, b.Bytes())
	return out, err
}

// mozilla-services/go-syncstorage#148: the encoded body was returned as
// Bytes() of a pooled buffer; the fix copies it to a new slice.

var syncstoragePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func syncstorageEncodeBSO(payload string) []byte {
	buf := syncstoragePool.Get().(*bytes.Buffer)
	buf.Reset()
	defer syncstoragePool.Put(buf)
	fmt.Fprintf(buf, `{"payload":%q}`, payload)
	return buf.Bytes() // want `returned value shares memory with buf`
}

func syncstorageEncodeBSOFixed(payload string) []byte {
	buf := syncstoragePool.Get().(*bytes.Buffer)
	buf.Reset()
	defer syncstoragePool.Put(buf)
	fmt.Fprintf(buf, `{"payload":%q}`, payload)
	b := make([]byte, buf.Len())
	copy(b, buf.Bytes())
	return b
}

// src-d/go-git#1159: diffDelta returned buf.Bytes() of a pooled buffer
// (and leaked it on errors); the fix copies the delta before the Put.

var deltaBufPool = sync.Pool{New: func() any { return bytes.NewBuffer(nil) }}

func gitDiffDelta(src, tgt []byte) []byte {
	buf := deltaBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Write(src[:0])
	buf.Write(tgt)
	bytes := buf.Bytes()
	deltaBufPool.Put(buf)
	return bytes // want `buf is used after it was put back into the pool`
}

func gitDiffDeltaFixed(src, tgt []byte) []byte {
	buf := deltaBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Write(src[:0])
	buf.Write(tgt)
	bytes := make([]byte, buf.Len())
	copy(bytes, buf.Bytes())
	deltaBufPool.Put(buf)
	return bytes
}

// ---- useafterput: the object used after an explicit Put ----

// syncthing/syncthing#7409: a buffer was used for debug logging after it
// went back to BufferPool; the fix logs before the Put.

type bufferPool struct{ pool sync.Pool }

func (p *bufferPool) Get(size int) []byte {
	if b, ok := p.pool.Get().(*[]byte); ok && cap(*b) >= size {
		return (*b)[:size]
	}
	return make([]byte, size)
}

func (p *bufferPool) Put(bs []byte) { // want Put:`pool:put\(1\)`
	if cap(bs) > 1<<20 {
		return
	}
	bs = bs[:0]
	p.pool.Put(&bs)
}

var BufferPool bufferPool

func debugf(format string, args ...any) {}

func syncthingWriteCompressed(w io.Writer, msg []byte) error {
	buf := BufferPool.Get(len(msg))
	n := copy(buf, msg)
	_, err := w.Write(buf[:n])
	BufferPool.Put(buf)
	debugf("wrote %d bytes: %x", n, buf[:n]) // want `buf is used after it was put back into the pool`
	return err
}

func syncthingWriteCompressedFixed(w io.Writer, msg []byte) error {
	buf := BufferPool.Get(len(msg))
	n := copy(buf, msg)
	_, err := w.Write(buf[:n])
	debugf("wrote %d bytes: %x", n, buf[:n])
	BufferPool.Put(buf)
	return err
}

// thanos-io/thanos#4792: BucketedBytes.Put read the slice's capacity after
// putting it back; the fix reads it before.

type BucketedBytes struct {
	buckets   []sync.Pool
	sizes     []int
	mtx       sync.Mutex
	usedTotal uint64
}

func (p *BucketedBytes) Put(b *[]byte) { // want Put:`pool:put\(1\)\+reset`
	if b == nil {
		return
	}
	for i, bktSize := range p.sizes {
		if cap(*b) > bktSize {
			continue
		}
		*b = (*b)[:0]
		p.buckets[i].Put(b)
		break
	}
	p.mtx.Lock()
	defer p.mtx.Unlock()
	p.usedTotal -= uint64(cap(*b)) // want `b is used after it was put back into the pool`
}

type BucketedBytesFixed struct {
	buckets   []sync.Pool
	sizes     []int
	mtx       sync.Mutex
	usedTotal uint64
}

func (p *BucketedBytesFixed) Put(b *[]byte) { // want Put:`pool:put\(1\)\+reset`
	if b == nil {
		return
	}
	sz := cap(*b)
	for i, bktSize := range p.sizes {
		if sz > bktSize {
			continue
		}
		*b = (*b)[:0]
		p.buckets[i].Put(b)
		break
	}
	p.mtx.Lock()
	defer p.mtx.Unlock()
	p.usedTotal -= uint64(sz)
}

// ---- useafterput: handed to another user before the Put ----

// minio/simdjson-go#4: the input buffer went to the stage-1 goroutine and
// was put back into the pool without waiting for that goroutine; the fix
// waits for the buffer to come back before the Put.

var inputPool = sync.Pool{New: func() any { b := make([]byte, 0, 1<<16); return &b }}

type internalParsedJson struct{ indexChans chan int }

func findStructuralIndices(buf []byte, pj *internalParsedJson) {
	for i, c := range buf {
		if c == '{' || c == '}' {
			pj.indexChans <- i
		}
	}
	close(pj.indexChans)
}

// buildTape stops at the first bad index without draining the channel, so
// stage 1 may still be reading the buffer when it returns.
func buildTape(pj *internalParsedJson) bool {
	for i := range pj.indexChans {
		if i < 0 {
			return false
		}
	}
	return true
}

func simdjsonParseMessage(msg []byte) bool {
	bp := inputPool.Get().(*[]byte)
	buf := append((*bp)[:0], msg...)
	pj := &internalParsedJson{indexChans: make(chan int, 16)}
	go func() {
		findStructuralIndices(buf, pj)
	}()
	ok := buildTape(pj)
	*bp = buf[:0]
	inputPool.Put(bp) // want `bp is put back into the pool while a goroutine started at line \d+ may still use it`
	return ok
}

func simdjsonParseMessageFixed(msg []byte) bool {
	bp := inputPool.Get().(*[]byte)
	buf := append((*bp)[:0], msg...)
	pj := &internalParsedJson{indexChans: make(chan int, 16)}
	done := make(chan struct{})
	go func() {
		findStructuralIndices(buf, pj)
		close(done)
	}()
	ok := buildTape(pj)
	<-done
	*bp = buf[:0]
	inputPool.Put(bp)
	return ok
}

// apache/pulsar-client-go#1371 (fixed by #1372): a batch buffer was sent
// to the connection's writer goroutine and put back into the pool on the
// completion path even when no receipt proved the writer was done; the fix
// puts it back only after the receipt arrives.

type buffer struct{ data []byte }

var buffersPool = sync.Pool{New: func() any { return &buffer{data: make([]byte, 0, 1024)} }}

type connection struct{ writeRequestsCh chan *buffer }

type pendingItem struct {
	buffer  *buffer
	receipt chan error
}

func pulsarSendBatch(cnx *connection, payload []byte, failed bool) {
	buf := buffersPool.Get().(*buffer)
	buf.data = append(buf.data[:0], payload...)
	cnx.writeRequestsCh <- buf
	if failed {
		buf.data = buf.data[:0]
		buffersPool.Put(buf) // want `buf is put back into the pool while the receiver of the channel send at line \d+ may still use it`
	}
}

func pulsarSendBatchFixed(cnx *connection, item *pendingItem, payload []byte) {
	buf := buffersPool.Get().(*buffer)
	buf.data = append(buf.data[:0], payload...)
	item.buffer = buf
	cnx.writeRequestsCh <- buf
	if err := <-item.receipt; err == nil {
		buf.data = buf.data[:0]
		buffersPool.Put(buf)
	}
}

// xxddpac/go-flow#6: a pooled *Traffic was pushed to a buffered channel
// for the Kafka and metrics consumers and then put back; the fix sends a
// copy.

type Traffic struct {
	SrcIP, DstIP string
	Packets      int64
	Bytes        int64
}

var trafficPool = sync.Pool{New: func() any { return new(Traffic) }}

var trafficCh = make(chan *Traffic, 1024)

func goflowHandlePacket(src, dst string, payload []byte) {
	t := trafficPool.Get().(*Traffic)
	t.SrcIP, t.DstIP, t.Packets, t.Bytes = src, dst, 1, int64(len(payload))
	trafficCh <- t
	trafficPool.Put(t) // want `t is put back into the pool while the receiver of the channel send at line \d+ may still use it`
}

func goflowHandlePacketFixed(src, dst string, payload []byte) {
	t := trafficPool.Get().(*Traffic)
	t.SrcIP, t.DstIP, t.Packets, t.Bytes = src, dst, 1, int64(len(payload))
	cp := *t
	trafficCh <- &cp
	trafficPool.Put(t)
}

// ---- noreset ----

// mbrt/gmailctl#282: internal/errors put buffers back without Reset, so
// later errors carried the descriptions of earlier ones.

var errBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func gmailctlErrorDetails(err error, details []string) string {
	buf := errBufPool.Get().(*bytes.Buffer)
	buf.WriteString(err.Error())
	for _, d := range details {
		buf.WriteString("\n  ")
		buf.WriteString(d)
	}
	s := buf.String()
	errBufPool.Put(buf) // want `buf \(\*bytes.Buffer\) goes back to the pool without Reset`
	return s
}

func gmailctlErrorDetailsFixed(err error, details []string) string {
	buf := errBufPool.Get().(*bytes.Buffer)
	defer func() {
		buf.Reset()
		errBufPool.Put(buf)
	}()
	buf.WriteString(err.Error())
	for _, d := range details {
		buf.WriteString("\n  ")
		buf.WriteString(d)
	}
	return buf.String()
}

// ---- nonpointer ----

// internetarchive/gowarc#98: spooledPool.Put(s.buf[:0]) boxed a slice
// header on every Put (SA6002); the fix pools pointers.

var spooledPool = sync.Pool{New: func() any { return make([]byte, 0, 1<<20) }}

type spooledTempFile struct{ buf []byte }

func (s *spooledTempFile) Close() error {
	spooledPool.Put(s.buf[:0]) // want `non-pointer value of type \[\]byte put into sync.Pool`
	s.buf = nil
	return nil
}

var spooledPoolFixed = sync.Pool{New: func() any { b := make([]byte, 0, 1<<20); return &b }}

func (s *spooledTempFile) CloseFixed() error {
	b := s.buf[:0]
	spooledPoolFixed.Put(&b)
	s.buf = nil
	return nil
}

// dgraph-io/dgraph#4089: byte slices were stored in a sync.Pool by value.

var dgraphBufPool = sync.Pool{New: func() any { return make([]byte, 0, 256) }}

func dgraphEncodeKey(attr string, uid uint64) string {
	buf := dgraphBufPool.Get().([]byte)
	buf = append(buf[:0], attr...)
	buf = append(buf, byte(uid))
	s := string(buf)
	dgraphBufPool.Put(buf) // want `non-pointer value of type \[\]byte put into sync.Pool`
	return s
}

var dgraphBufPoolFixed = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func dgraphEncodeKeyFixed(attr string, uid uint64) string {
	bp := dgraphBufPoolFixed.Get().(*[]byte)
	buf := append((*bp)[:0], attr...)
	buf = append(buf, byte(uid))
	s := string(buf)
	if cap(buf) <= 1<<10 {
		*bp = buf
		dgraphBufPoolFixed.Put(bp)
	}
	return s
}

// google/badwolf#170: Triple.UUID took a []byte from bufPool and put it back
// by value; the fix stores *[]byte.

var tripleBufPool = sync.Pool{New: func() any { return make([]byte, 48) }}

func badwolfUUID(s, p, o [16]byte) [16]byte {
	b := tripleBufPool.Get().([]byte)
	copy(b[:16], s[:])
	copy(b[16:32], p[:])
	copy(b[32:], o[:])
	var id [16]byte
	copy(id[:], b)
	tripleBufPool.Put(b) // want `non-pointer value of type \[\]byte put into sync.Pool`
	return id
}

var tripleBufPoolFixed = sync.Pool{New: func() any { b := make([]byte, 48); return &b }}

func badwolfUUIDFixed(s, p, o [16]byte) [16]byte {
	bp := tripleBufPoolFixed.Get().(*[]byte)
	b := *bp
	copy(b[:16], s[:])
	copy(b[16:32], p[:])
	copy(b[32:], o[:])
	var id [16]byte
	copy(id[:], b)
	tripleBufPoolFixed.Put(bp)
	return id
}

// prebid/prebid-cache#55: whole structs were put into the pool by value,
// which allocates on every Put; the fix pools pointers.

type putObject struct {
	Type       string
	TTLSeconds int
	Value      string
}

var putObjectPool = sync.Pool{New: func() any { return putObject{} }}

func prebidParsePut(typ, val string) string {
	p := putObjectPool.Get().(putObject)
	p.Type, p.Value = typ, val
	out := p.Type + ":" + p.Value
	putObjectPool.Put(p) // want `non-pointer value of type putObject put into sync.Pool`
	return out
}

var putObjectPoolFixed = sync.Pool{New: func() any { return new(putObject) }}

func prebidParsePutFixed(typ, val string) string {
	p := putObjectPoolFixed.Get().(*putObject)
	p.Type, p.Value = typ, val
	out := p.Type + ":" + p.Value
	*p = putObject{}
	putObjectPoolFixed.Put(p)
	return out
}

// ---- typemismatch ----

// FDio/govpp#54: an extra & on Put stored **[]byte in a pool whose Get
// asserts *[]byte: "interface {} is **[]uint8, not *[]uint8".

var readerPool = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

func govppReadMsg(r io.Reader) (int, error) {
	buf := readerPool.Get().(*[]byte) // want `this Get's result is asserted to`
	n, err := r.Read(*buf)
	readerPool.Put(&buf) // want `&buf of type \*\*\[\]byte is put into readerPool, whose New returns \*\[\]byte`
	return n, err
}

func govppReadMsgFixed(r io.Reader) (int, error) {
	buf := readerPool.Get().(*[]byte) // want `this Get's result is asserted to`
	n, err := r.Read(*buf)
	readerPool.Put(buf)
	return n, err
}

// katzenpost/server#17: packet buffers went back as []byte into a pool of
// *[]byte: "interface {} is []uint8, not *[]uint8".

var rawPacketPool = sync.Pool{New: func() any { b := make([]byte, 2048); return &b }}

type packet struct{ raw []byte }

func (p *packet) katzenpostDispose() {
	rawPacketPool.Put(p.raw) // want `non-pointer value of type \[\]byte put into sync.Pool` `p.raw of type \[\]byte is put into rawPacketPool, whose New returns \*\[\]byte`
	p.raw = nil
}

func (p *packet) katzenpostDisposeFixed() {
	raw := p.raw
	rawPacketPool.Put(&raw)
	p.raw = nil
}

// jgautheron/goconst#37: a pool of []Issue was given *[]Issue back:
// "interface {} is *[]goconst.Issue, not []goconst.Issue".

type Issue struct {
	Str              string
	OccurrencesCount int
}

var IssuePool = sync.Pool{New: func() any { return make([]Issue, 0, 100) }}

func PutIssueBuffer(issues []Issue) { // want PutIssueBuffer:`pool:put\(0\)\+reset`
	clear(issues)
	issues = issues[:0]
	IssuePool.Put(&issues) // want `&issues of type \*\[\]Issue is put into IssuePool, whose New returns \[\]Issue`
}

var IssuePoolFixed = sync.Pool{New: func() any { s := make([]Issue, 0, 100); return &s }}

func PutIssueBufferFixed(issues *[]Issue) { // want PutIssueBufferFixed:`pool:put\(0\)\+reset`
	clear(*issues)
	*issues = (*issues)[:0]
	IssuePoolFixed.Put(issues)
}

// x-stp/rxtls#14: Get was asserted to strings.Builder while New returns
// *strings.Builder.

var builderPool = sync.Pool{New: func() any { return new(strings.Builder) }}

func rxtlsFormatDomain(name string, n int) string {
	sb := builderPool.Get().(strings.Builder) // want `builderPool.Get\(\) is asserted to strings.Builder, but its New returns \*strings.Builder`
	sb.Reset()
	fmt.Fprintf(&sb, "%s,%d", name, n)
	s := sb.String()
	return s
}

func rxtlsFormatDomainFixed(name string, n int) string {
	sb := builderPool.Get().(*strings.Builder)
	sb.Reset()
	fmt.Fprintf(sb, "%s,%d", name, n)
	s := sb.String()
	sb.Reset() // drops the bytes s shares (erigontech/erigon#23642)
	builderPool.Put(sb)
	return s
}

// ---- doubleput (fixed shapes: one Put on every exit) ----

// erigontech/erigon#20802: valMapPool maps were never put back; the fix
// clears and puts at every exit of the loop body (continue, return, end),
// which must not read as a double Put.

var valMapPool = sync.Pool{New: func() any { return make(map[string]int) }}

func erigonCheckKeys(keys [][]string) error {
	for _, ks := range keys {
		m := valMapPool.Get().(map[string]int)
		if len(ks) == 0 {
			clear(m)
			valMapPool.Put(m)
			continue
		}
		for _, k := range ks {
			if m[k] > 0 {
				clear(m)
				valMapPool.Put(m)
				return fmt.Errorf("duplicate key %q", k)
			}
			m[k]++
		}
		clear(m)
		valMapPool.Put(m)
	}
	return nil
}
