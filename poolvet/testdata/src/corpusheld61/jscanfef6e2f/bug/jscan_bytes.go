package bug

import "sync"

// IteratorBytes provides access to the recently scanned value.
type IteratorBytes struct {
	st         *stack
	src        []byte
	escapePath bool
	cachedPath []byte
	expect     expectation
	keyBuf     []byte

	ValueType                       ValueType
	Level                           int
	KeyStart, KeyEnd, KeyLenEscaped int
	ValueStart, ValueEnd            int
	ArrayIndex                      int
}

type ErrorBytes struct {
	Src   []byte
	Index int
	Code  int8
}

type Options struct {
	CachePath  bool
	EscapePath bool
}

var itrPoolBytes = sync.Pool{
	New: func() interface{} {
		return &IteratorBytes{
			st:     newStack(64),
			keyBuf: make([]byte, 0, 4096),
		}
	},
}

func getItrBytesFromPool(
	s []byte,
	escapePath bool,
	startIndex int,
) *IteratorBytes {
	i := itrPoolBytes.Get().(*IteratorBytes)
	i.st.Reset()
	i.escapePath = escapePath
	i.cachedPath = i.cachedPath[:0]
	i.src = s
	i.ValueType = 0
	i.Level = 0
	i.KeyStart, i.KeyEnd, i.KeyLenEscaped = -1, -1, -1
	i.ValueStart, i.ValueEnd = startIndex, -1
	i.ArrayIndex = 0
	i.expect = expectVal
	i.keyBuf = i.keyBuf[:0]
	return i
}

func (i *IteratorBytes) scan(s []byte, fn func(*IteratorBytes) bool) ([]byte, ErrorBytes) {
	if fn(i) {
		return nil, ErrorBytes{Src: s, Index: i.ValueStart, Code: 6}
	}
	return nil, ErrorBytes{}
}

func (i *IteratorBytes) scanWithCachedPath(s []byte, fn func(*IteratorBytes) bool) ([]byte, ErrorBytes) {
	i.cachedPath = append(i.cachedPath, '.')
	return i.scan(s, fn)
}

// ScanBytesOne calls fn for every scanned value of the first JSON value
// in s and returns the trailing bytes.
func ScanBytesOne(
	o Options,
	s []byte,
	fn func(*IteratorBytes) (err bool),
) (trailing []byte, err ErrorBytes) {
	startIndex := 0
	for startIndex < len(s) && (s[startIndex] == ' ' || s[startIndex] == '\n') {
		startIndex++
	}
	if startIndex >= len(s) {
		return nil, ErrorBytes{Src: s, Index: startIndex, Code: 3}
	}

	i := getItrBytesFromPool(s, o.EscapePath, startIndex)
	defer itrPool.Put(i)

	if o.CachePath {
		return i.scanWithCachedPath(s, fn)
	}
	return i.scan(s, fn)
}

// ScanBytes is like ScanBytesOne but requires s to hold a single value.
func ScanBytes(
	o Options,
	s []byte,
	fn func(*IteratorBytes) (err bool),
) ErrorBytes {
	i := getItrBytesFromPool(s, o.EscapePath, 0)
	defer itrPoolBytes.Put(i)
	_, err := i.scan(s, fn)
	return err
}
