package noreset

import (
	"encoding/gob"
	"io"
	"sync"
)

// Entries decoded with gob come from a pool; gob leaves a field alone when
// the input's value is zero, so a pooled entry keeps the previous user's
// Tombstone unless the Put clears every field (RoseWrightdev/oryx 1b45ca8).
type dcEntry struct {
	Key       string
	Data      []byte
	Timestamp int64
	Tombstone bool
}

var dcEntries = sync.Pool{New: func() any { return new(dcEntry) }}

func dcImport(r io.Reader, apply func(*dcEntry)) error {
	dec := gob.NewDecoder(r)
	for {
		e := dcEntries.Get().(*dcEntry)
		if err := dec.Decode(e); err != nil {
			dcEntries.Put(e) // want `e \(\*dcEntry\) was decoded into without being cleared`
			return err
		}
		apply(e)
		e.Key, e.Data = "", nil
		dcEntries.Put(e) // want `e \(\*dcEntry\) was decoded into without being cleared`
	}
}

// Every field cleared after use: silent.
func dcImportCleared(r io.Reader, apply func(*dcEntry)) error {
	dec := gob.NewDecoder(r)
	for {
		e := dcEntries.Get().(*dcEntry)
		if err := dec.Decode(e); err != nil {
			return err
		}
		apply(e)
		e.Key, e.Data, e.Timestamp, e.Tombstone = "", nil, 0, false
		dcEntries.Put(e)
	}
}

// Cleared before the decode: silent.
func dcImportFresh(r io.Reader, apply func(*dcEntry)) error {
	dec := gob.NewDecoder(r)
	for {
		e := dcEntries.Get().(*dcEntry)
		e.Tombstone = false
		if err := dec.Decode(e); err != nil {
			return err
		}
		apply(e)
		dcEntries.Put(e)
	}
}
