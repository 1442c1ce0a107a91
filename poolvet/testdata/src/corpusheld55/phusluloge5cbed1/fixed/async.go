// Source: https://github.com/phuslu/log/commit/e5cbed175693a78738a4d553d8c966792bd9976b
// ("make async writer zero allocs"), async.go before and after it.
//
// Bug: AsyncWriter copied every log line into a []byte taken from b1kpool, a
// sync.Pool of plain byte slices, sent it over a chan []byte, and the
// consumer goroutines put the slice value back with b1kpool.Put(b). A slice
// is not pointer-shaped, so each Put boxes the slice header into an
// interface and allocates, which defeats the pool on the logging hot path.
// Fix: the commit drops b1kpool; the writer now copies into a pooled *Event
// (epool, New returns &Event{buf: ...}), sends the *Event over a chan *Event
// and puts the *Event back, so no allocation happens per log line.
// Check: nonpointer (at the b1kpool.Put(b) calls in consumer0 and consumerN,
// which put a []byte value into a sync.Pool)
package fixed

import (
	"io"
	"sync"
)

// Event represents a log event (trimmed from logger.go).
type Event struct {
	buf []byte
}

var epool = sync.Pool{
	New: func() interface{} {
		return &Event{
			buf: make([]byte, 0, 1024),
		}
	},
}

// AsyncWriter is an io.WriteCloser that writes asynchronously.
type AsyncWriter struct {
	// ChannelSize is the size of the data channel, the default size is 1.
	ChannelSize uint

	// Writer specifies the writer of output.
	Writer io.Writer

	once    sync.Once
	ch      chan *Event
	chClose chan error
}

// Close implements io.Closer, and closes the underlying Writer.
func (w *AsyncWriter) Close() (err error) {
	w.ch <- nil
	err = <-w.chClose
	return
}

// Write implements io.Writer.
func (w *AsyncWriter) Write(p []byte) (int, error) {
	e := epool.Get().(*Event)
	e.buf = append(e.buf[:0], p...)
	return w.WriteEvent(e)
}

// WriteEvent implements eventWriter.
func (w *AsyncWriter) WriteEvent(e *Event) (int, error) {
	w.once.Do(func() {
		// channels
		w.ch = make(chan *Event, w.ChannelSize)
		w.chClose = make(chan error)
		go func() {
			var err error
			for e := range w.ch {
				if e == nil {
					break
				}
				_, err = w.Writer.Write(e.buf)
				epool.Put(e)
			}
			w.chClose <- err
		}()
	})

	w.ch <- e
	return len(e.buf), nil
}
