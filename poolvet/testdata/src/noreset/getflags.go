package noreset

import "sync"

type result struct {
	data     []byte
	children []*result
	nested   bool
}

var resultPool = sync.Pool{New: func() any { return new(result) }}

func decodeResult(msg []byte) *result {
	r := resultPool.Get().(*result)
	r.data = msg
	for i, b := range msg {
		if b == 0 {
			child := resultPool.Get().(*result)
			child.data = msg[i+1:]
			child.nested = true
			r.children = append(r.children, child)
		}
	}
	return r
}

// Close releases a top-level result; nested ones belong to their parent.
func (r *result) Close() { // want Close:`pool:put\(0\)\+reset\?`
	if r.nested {
		return
	}
	r.release()
}

// The nested flag set on children survives: a child put back and got again
// as a top-level result is never released (CrowdStrike/csproto#213).
func (r *result) release() {
	for _, c := range r.children {
		c.release()
	}
	clear(r.children)
	r.children = r.children[:0]
	r.data = nil
	resultPool.Put(r) // want `r goes back to the pool with field nested, which decodeResult sets on an object it gets from the pool and not every user sets`
}

type frame struct {
	data  []byte
	extra []byte
	last  bool
}

var framePool = sync.Pool{New: func() any { return new(frame) }}

// Every user that gets a frame sets last: silent.
func readFrames(msgs [][]byte) []*frame {
	var out []*frame
	for i, m := range msgs {
		f := framePool.Get().(*frame)
		f.data = m
		f.last = false
		if i == len(msgs)-1 {
			f.last = true
		}
		out = append(out, f)
	}
	return out
}

func firstFrame(m []byte) *frame {
	f := framePool.Get().(*frame)
	f.data, f.last = m, true
	return f
}

func releaseFrame(f *frame) {
	if f.last {
		f.extra = nil
	}
	f.data = nil
	f.extra = f.extra[:0]
	framePool.Put(f)
}

type check struct {
	fields   []int
	tags     []int
	excludes bool
}

var checkPool = sync.Pool{New: func() any { return new(check) }}

// The users that read excludes set it after Get, true or false: silent.
func (c *check) run() bool { return c.excludes && len(c.fields) > 0 }

func releaseCheck(c *check) {
	c.fields = c.fields[:0]
	c.tags = c.tags[:0]
	checkPool.Put(c)
}

func validateExcept(fields []int) bool {
	c := checkPool.Get().(*check)
	c.fields = append(c.fields, fields...)
	c.excludes = true
	ok := c.run()
	releaseCheck(c)
	return ok
}

func validatePartial(fields []int) bool {
	c := checkPool.Get().(*check)
	c.fields = append(c.fields, fields...)
	c.excludes = false
	ok := c.run()
	releaseCheck(c)
	return ok
}

func validateAll() int {
	c := checkPool.Get().(*check)
	n := len(c.tags)
	releaseCheck(c)
	return n
}
