// Source: https://github.com/juicedata/juicefs/pull/899 ("Fix WebDAV backend"),
// commit 1d2054feff2fcc098f479a64829abbadb1f5d22b ("object: 1. fix webdav use
// pool put err ..."), pkg/object/webdav.go and pkg/object/object_storage.go.
//
// Bug: the package-wide bufPool holds *[]byte (New returns &buf and every
// caller asserts bufPool.Get().(*[]byte)). webdav.Put takes wbuf from the
// pool but defers bufPool.Put(buf), where buf is the *bytes.Buffer that the
// TeeReader fills. The pool then hands a *bytes.Buffer to the next Get,
// whose .(*[]byte) assertion panics (and wbuf is never returned).
//
// Fix: defer bufPool.Put(wbuf).
//
// Check: typemismatch (Get asserts *[]byte but webdav.Put stores a
// *bytes.Buffer into the same pool; reported at the Get's type assertion)
package bug

import (
	"bytes"
	"io"
	"path"
	"strings"
	"sync"
)

// object_storage.go

var bufPool = sync.Pool{
	New: func() interface{} {
		buf := make([]byte, 32<<10)
		return &buf
	},
}

// webdav.go

// Client is the part of gowebdav.Client the backend uses.
type Client interface {
	Create(name string) (io.WriteCloser, error)
	Mkdir(name string) error
	RemoveAll(name string) error
}

type webdav struct {
	c Client
}

func (w *webdav) mkdirs(p string) error {
	err := w.c.Mkdir(p)
	if err != nil && w.isNotExist(err) {
		if w.mkdirs(path.Dir(p)) == nil {
			err = w.c.Mkdir(p)
		}
	}
	return err
}

func (w *webdav) isNotExist(err error) bool {
	return strings.Contains(err.Error(), "Not Found")
}

func (w *webdav) Put(key string, in io.Reader) error {
	var buf = bytes.NewBuffer(nil)
	in = io.TeeReader(in, buf)
	out, err := w.c.Create(key)
	if err != nil {
		return err
	}
	wbuf := bufPool.Get().(*[]byte) // want `typemismatch`
	defer bufPool.Put(buf)
	_, err = io.CopyBuffer(out, in, *wbuf)
	if err != nil {
		return err
	}
	err = out.Close()
	if err != nil && w.isNotExist(err) {
		if w.mkdirs(path.Dir(key)) == nil {
			return w.Put(key, bytes.NewReader(buf.Bytes()))
		}
	}
	return err
}

func (w *webdav) Delete(key string) error {
	err := w.c.RemoveAll(key)
	if err != nil && w.isNotExist(err) {
		err = nil
	}
	return err
}
