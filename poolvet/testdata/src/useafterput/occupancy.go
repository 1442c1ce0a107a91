package useafterput

import (
	"bytes"
	"sync"
)

var occPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// The deferred closure puts the buffer back only when it is at least half
// full: its own sizes decide, so the returned bytes may be reused
// (mongodb/mongo-go-driver#1913).
func occupancyPut(val string) []byte {
	sw := occPool.Get().(*bytes.Buffer)
	defer func() {
		if sw.Cap() < 1<<24 && sw.Cap()/2 < sw.Len() {
			occPool.Put(sw)
		}
	}()
	sw.Reset()
	sw.WriteString(val)
	return sw.Bytes() // want `returned value shares memory with sw, which the deferred Put`
}

// The same with the drop written first.
func occupancyDrop(val string) []byte {
	sw := occPool.Get().(*bytes.Buffer)
	defer func() {
		if sw.Len()*4 < sw.Cap() || sw.Cap() > 1<<24 {
			return
		}
		occPool.Put(sw)
	}()
	sw.Reset()
	sw.WriteString(val)
	return sw.Bytes() // want `returned value shares memory with sw, which the deferred Put`
}

// A copy is returned: silent.
func occupancyCopy(val string) []byte {
	sw := occPool.Get().(*bytes.Buffer)
	defer func() {
		if sw.Cap() < 1<<24 && sw.Cap()/2 < sw.Len() {
			occPool.Put(sw)
		}
	}()
	sw.Reset()
	sw.WriteString(val)
	return append([]byte(nil), sw.Bytes()...)
}

// The caller chooses: the buffer is kept when it is returned. Silent.
func occupancyKept(val string, keep bool) []byte {
	sw := occPool.Get().(*bytes.Buffer)
	defer func() {
		if !keep {
			occPool.Put(sw)
		}
	}()
	sw.Reset()
	sw.WriteString(val)
	if keep {
		return sw.Bytes()
	}
	return nil
}
