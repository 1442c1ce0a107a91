package doubleput

import "sync"

// Two Puts of one buffer under tests of one field against two constants
// exclude each other (pion/ion-sfu eb01437's video and audio pools): fine.
type codecBuffer struct {
	mu    sync.Mutex
	codec string
	bufp  *[]byte
}

var videoBufs, audioBufs sync.Pool

func (b *codecBuffer) release() {
	if b.codec == "video" {
		videoBufs.Put(b.bufp)
	}
	if b.codec == "audio" {
		audioBufs.Put(b.bufp)
	}
}

// The same in a closure run once, over the captured receiver.
func (b *codecBuffer) releaseOnce(once *sync.Once) {
	once.Do(func() {
		if b.codec == "video" {
			videoBufs.Put(b.bufp)
		}
		if b.codec == "audio" {
			audioBufs.Put(b.bufp)
		}
	})
}

// A store between the tests: the second one may hold too.
func (b *codecBuffer) releaseSwitched() {
	if b.codec == "video" {
		videoBufs.Put(b.bufp)
		b.codec = "audio"
	}
	if b.codec == "audio" {
		audioBufs.Put(b.bufp) // want `b.bufp is put into the pool twice`
	}
}
