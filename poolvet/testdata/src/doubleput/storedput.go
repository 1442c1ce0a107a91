package doubleput

import "sync"

type frameBuf struct {
	data []byte
}

var frameBufPool = sync.Pool{New: func() any { return new(frameBuf) }}

// rowIter owns its frame: Close puts it back.
type rowIter struct {
	err   error
	frame *frameBuf
}

func (it *rowIter) Close() error {
	if it.frame != nil {
		frameBufPool.Put(it.frame)
		it.frame = nil
	}
	return it.err
}

// The frame goes back on the unprepared path, and the iterator returned
// there still carries it: its Close puts it again (gocql/gocql#1112).
func runQuery(retry bool, fail error) *rowIter {
	f := frameBufPool.Get().(*frameBuf)
	f.data = f.data[:0]
	if fail != nil {
		frameBufPool.Put(f)
		if retry {
			return runQuery(false, nil)
		}
		return &rowIter{err: fail, frame: f} // want `f, put back into the pool at line 31, is then stored in rowIter.frame, which Close puts into the pool again`
	}
	return &rowIter{frame: f}
}

// A holder with no method that puts its field: what is stored is a use
// after the Put (useafterput, off in this directory), not a second Put.
type frameView struct {
	frame *frameBuf
}

func (v *frameView) size() int { return len(v.frame.data) }

func viewQuery(fail error) *frameView {
	f := frameBufPool.Get().(*frameBuf)
	f.data = f.data[:0]
	if fail != nil {
		frameBufPool.Put(f)
		return &frameView{frame: f}
	}
	return &frameView{frame: f}
}

// Silent: the fixed shape puts the frame only where no iterator keeps it.
func runQueryFixed(retry bool, fail error) *rowIter {
	f := frameBufPool.Get().(*frameBuf)
	f.data = f.data[:0]
	if fail != nil {
		if retry {
			frameBufPool.Put(f)
			return runQueryFixed(false, nil)
		}
		return &rowIter{err: fail, frame: f}
	}
	return &rowIter{frame: f}
}
