// Source: https://github.com/mozilla-services/go-syncstorage/pull/148
// (commit b20086b3a7b105da73a7864b6efb6341a3c4550c, "Fix bugs using
// sync.Pool for bytes.Buffer"). Outside writer A's domain (social/fediverse
// platforms ran dry); go-syncstorage is Mozilla's Firefox Sync storage server.
//
// Bug: two functions encoded into a *bytes.Buffer taken from a sync.Pool and
// returned buf.Bytes() to the caller after the buffer had gone back to the
// pool. BSO.MarshalJSON kept data := buf.Bytes(), then Reset and Put the
// buffer and returned data; MozlogFormatter.Format returned b.Bytes() past a
// deferred Reset+Put. The next user of the pooled buffer overwrote the bytes
// the caller still held ("the returned slice pointed at mutated data").
//
// Fix: copy the bytes into a fresh slice (make + copy) before returning,
// and Put the buffer with a plain defer (Reset after Get).
//
// Check: useafterput (at "return data, nil" in MarshalJSON, which returns
// the buffer's memory after bsoBufferPool.Put; and at "return b.Bytes(), nil"
// in Format, which returns the buffer's memory past the deferred Put)
package bug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// use a buffer pool to reduce memory allocations
// since we'll be encoding a lot of BSOs
var bsoBufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

// ref: https://docs.services.mozilla.com/storage/apis-1.5.html#basic-storage-object
type BSO struct {
	Id        string
	Modified  int
	Payload   string
	SortIndex int
	TTL       int
}

// ModifiedToString turns the output of Now(), an integer of milliseconds since
// the epoch to the sync 1.5's seconds w/ two decimals format
func ModifiedToString(modified int) string {
	return fmt.Sprintf("%.2f", float64(modified)/1000)
}

// MarshalJSON builds a custom json blob since there is no way good way of turning the
// Modified int (in milliseconds) into seconds with two decimal places which the
// api defines as the correct format. meh.
func (b BSO) MarshalJSON() ([]byte, error) {

	buf := bsoBufferPool.Get().(*bytes.Buffer)
	buf.WriteString(`{"id":`)
	if encoded, err := json.Marshal(b.Id); err == nil {
		buf.Write(encoded)
	} else {
		buf.Reset()
		bsoBufferPool.Put(buf)
		return nil, err
	}

	buf.WriteString(`,"modified":`)
	buf.WriteString(ModifiedToString(b.Modified))

	buf.WriteString(`,"payload":`)
	if encoded, err := json.Marshal(b.Payload); err == nil {
		buf.Write(encoded)
	} else {
		buf.Reset()
		bsoBufferPool.Put(buf)
		return nil, err
	}

	if b.SortIndex != 0 {
		buf.WriteString(`,"sortindex":`)
		buf.WriteString(strconv.Itoa(b.SortIndex))
	}

	buf.WriteString("}")
	data := buf.Bytes()
	buf.Reset()
	bsoBufferPool.Put(buf)
	return data, nil // want `useafterput`
}
