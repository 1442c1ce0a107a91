// Package bug reproduces the shape of muktihari/fit#460
// (https://github.com/muktihari/fit/pull/460): the FIT Decoder is reused
// through a sync.Pool (the fitactivity opener takes one per file, Resets it
// and puts it back when done). Decode registers releaseTemporaryObjects as a
// deferred call that nils the *FieldDescription pointers collected during the
// decode, but on success Decode first calls d.reset(), and reset truncates
// fieldDescriptions with [:0]. By the time the deferred release runs the
// slice is empty, so it clears nothing and the pooled decoder keeps every
// field description of the last file alive in its backing array. The fix
// moved the truncation into releaseTemporaryObjects, after the clearing loop.
//
// Check: noreset (a slice of pointers truncated with [:0] without clearing,
// on a pooled object), reported at the truncation in reset.
package bug

import (
	"bufio"
	"errors"
	"io"
	"os"
	"sync"
)

// FieldDescription describes a developer field; the decoder keeps pointers
// to the ones it has seen so developer data can be decoded.
type FieldDescription struct {
	DeveloperDataIndex uint8
	Name               string
}

type FileId struct{ Type uint8 }

type Message struct {
	Num   uint8
	Bytes []byte
}

type FIT struct {
	Messages []Message
}

const FileActivity = 4

var errMissingFileId = errors.New("missing file_id")

type Decoder struct {
	r    *bufio.Reader
	n    int64
	once sync.Once
	err  error

	dataSize uint32
	cur      uint32
	messages []Message
	fileId   *FileId

	developerDataIndexes []uint8
	fieldDescriptions    []*FieldDescription
}

func New(r io.Reader) *Decoder {
	d := &Decoder{}
	d.Reset(r)
	return d
}

// Reset makes the decoder read from r, retaining its storage.
func (d *Decoder) Reset(r io.Reader) {
	d.reset()
	d.n = 0
	if d.r == nil {
		d.r = bufio.NewReader(r)
	} else {
		d.r.Reset(r)
	}
}

func (d *Decoder) reset() {
	d.once = sync.Once{}
	d.cur = 0
	d.dataSize = 0
	d.err = nil
	d.messages = nil
	d.fileId = nil
	d.developerDataIndexes = d.developerDataIndexes[:0]
	d.fieldDescriptions = d.fieldDescriptions[:0] // want `noreset`
}

// releaseTemporaryObjects stops referencing objects created during a single
// decode so they can be collected.
func (d *Decoder) releaseTemporaryObjects() {
	d.messages = nil
	for i := range d.fieldDescriptions {
		d.fieldDescriptions[i] = nil
	}
}

func (d *Decoder) readByte() (byte, error) {
	b, err := d.r.ReadByte()
	if err == nil {
		d.n++
		d.cur++
	}
	return b, err
}

func (d *Decoder) decodeFileHeaderOnce() error {
	d.once.Do(func() {
		b, err := d.r.ReadByte()
		if err != nil {
			d.err = err
			return
		}
		d.n++
		d.dataSize = uint32(b)
	})
	return d.err
}

func (d *Decoder) decodeMessage() error {
	num, err := d.readByte()
	if err != nil {
		return err
	}
	size, err := d.readByte()
	if err != nil {
		return err
	}
	payload := make([]byte, size)
	for i := range payload {
		if payload[i], err = d.readByte(); err != nil {
			return err
		}
	}
	mesg := Message{Num: num, Bytes: payload}
	switch num {
	case 0:
		if len(payload) > 0 {
			d.fileId = &FileId{Type: payload[0]}
		}
	case 206:
		if len(payload) > 0 {
			d.developerDataIndexes = append(d.developerDataIndexes, payload[0])
			d.fieldDescriptions = append(d.fieldDescriptions,
				&FieldDescription{DeveloperDataIndex: payload[0], Name: string(payload[1:])})
		}
	}
	d.messages = append(d.messages, mesg)
	return nil
}

func (d *Decoder) decodeMessages() error {
	for d.cur < d.dataSize {
		if err := d.decodeMessage(); err != nil {
			return err
		}
	}
	return nil
}

func (d *Decoder) PeekFileId() (*FileId, error) {
	if d.err != nil {
		return nil, d.err
	}
	if d.err = d.decodeFileHeaderOnce(); d.err != nil {
		return nil, d.err
	}
	for len(d.messages) == 0 {
		if d.err = d.decodeMessage(); d.err != nil {
			return nil, d.err
		}
	}
	if d.fileId == nil {
		return nil, errMissingFileId
	}
	return d.fileId, nil
}

func (d *Decoder) Next() bool {
	if d.err != nil {
		return false
	}
	if d.n == 0 {
		return true
	}
	_, err := d.r.Peek(1)
	return err == nil
}

// Decode decodes one FIT sequence.
func (d *Decoder) Decode() (*FIT, error) {
	if d.err != nil {
		return nil, d.err
	}
	if d.err = d.decodeFileHeaderOnce(); d.err != nil {
		return nil, d.err
	}
	defer d.releaseTemporaryObjects()
	if d.err = d.decodeMessages(); d.err != nil {
		return nil, d.err
	}
	fit := &FIT{Messages: d.messages}
	d.reset()
	return fit, nil
}

// Discard skips the current FIT sequence.
func (d *Decoder) Discard() error {
	if d.err != nil {
		return d.err
	}
	if d.err = d.decodeFileHeaderOnce(); d.err != nil {
		return d.err
	}
	defer d.releaseTemporaryObjects()
	for d.cur < d.dataSize {
		if _, d.err = d.readByte(); d.err != nil {
			return d.err
		}
	}
	d.reset()
	return d.err
}

var pool = sync.Pool{New: func() interface{} { return New(nil) }}

func decode(path string) (fits []*FIT, err error) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()

	dec := pool.Get().(*Decoder)
	defer pool.Put(dec)

	dec.Reset(f)

	for dec.Next() {
		var fileId *FileId
		fileId, err = dec.PeekFileId()
		if err != nil {
			return
		}
		if fileId.Type != FileActivity {
			if err = dec.Discard(); err != nil {
				return
			}
			continue
		}
		var fit *FIT
		fit, err = dec.Decode()
		if err != nil {
			return
		}
		fits = append(fits, fit)
	}
	return
}
