package useafterput

import (
	"errors"
	"sync"
)

// A read loop that releases every control frame and goes round while err is
// nil: after the release err is nil, so the loop cannot leave by its
// condition there, and the frame it returns is the one read last (dgrr/http2
// 9a0fac18's readNext). No report.
type wireFrame struct {
	stream  uint32
	payload []byte
}

var wireFrames = sync.Pool{New: func() any { return new(wireFrame) }}

func readWireFrame(src func() ([]byte, uint32, error)) (*wireFrame, error) {
	b, stream, err := src()
	if err != nil {
		return nil, err
	}
	fr := wireFrames.Get().(*wireFrame)
	fr.stream, fr.payload = stream, append(fr.payload[:0], b...)
	return fr, nil
}

func releaseWireFrame(fr *wireFrame) {
	fr.stream = 0
	fr.payload = fr.payload[:0]
	wireFrames.Put(fr)
}

func nextDataFrame(src func() ([]byte, uint32, error), control func(*wireFrame)) (fr *wireFrame, err error) {
	for err == nil {
		fr, err = readWireFrame(src)
		if err != nil {
			break
		}
		if fr.stream != 0 {
			break
		}
		control(fr)
		releaseWireFrame(fr)
	}
	return fr, err
}

// The same loop with an error the release path can set leaves after the
// release and returns the released frame.
var errControl = errors.New("control frame refused")

func nextDataFrameRefusing(src func() ([]byte, uint32, error), control func(*wireFrame) bool) (fr *wireFrame, err error) {
	for err == nil {
		fr, err = readWireFrame(src)
		if err != nil {
			break
		}
		if fr.stream != 0 {
			break
		}
		ok := control(fr)
		releaseWireFrame(fr)
		if !ok {
			err = errControl
		}
	}
	return fr, err // want `returned value shares memory with fr|fr is used after it was put back`
}
