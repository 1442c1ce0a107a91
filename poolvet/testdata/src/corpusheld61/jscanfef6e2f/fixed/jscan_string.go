// Source: https://github.com/romshark/jscan/commit/fef6e2fdf8b856cae379a4494306f2108d876d8d
// ("fix: Return bytes-iterator to correct pool").
//
// Bug: jscan keeps two sync.Pools: itrPool for *Iterator (string input)
// and itrPoolBytes for *IteratorBytes ([]byte input). ScanBytesOne took
// its *IteratorBytes from itrPoolBytes via getItrBytesFromPool but
// deferred `itrPool.Put(i)`, putting the *IteratorBytes into the string
// pool. The next getItrFromPool call that receives it asserts
// itrPool.Get().(*Iterator) and panics.
// Fix: ScanBytesOne defers itrPoolBytes.Put(i).
//
// Check: typemismatch (at the *Iterator type assertion on itrPool.Get in
// getItrFromPool, since ScanBytesOne stores *IteratorBytes in itrPool)
package fixed

import "sync"

type expectation int8

const expectVal expectation = 0

type ValueType int

// stack is the parser's node stack.
type stack struct{ nodes []int }

func newStack(capacity int) *stack { return &stack{nodes: make([]int, 0, capacity)} }

func (s *stack) Reset() { s.nodes = s.nodes[:0] }

// Iterator provides access to the recently scanned value.
type Iterator struct {
	st         *stack
	src        string
	escapePath bool
	cachedPath []byte
	expect     expectation

	ValueType                       ValueType
	Level                           int
	KeyStart, KeyEnd, KeyLenEscaped int
	ValueStart, ValueEnd            int
	ArrayIndex                      int
}

type Error struct {
	Src   string
	Index int
	Code  int8
}

func (e Error) IsErr() bool { return e.Code != 0 }

var itrPool = sync.Pool{
	New: func() interface{} {
		return &Iterator{
			st: newStack(64),
		}
	},
}

func getItrFromPool(
	s string,
	escapePath bool,
	startIndex int,
) *Iterator {
	i := itrPool.Get().(*Iterator)
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
	return i
}

func (i *Iterator) validate(s string) (trailing string, err Error) {
	if len(s) == 0 {
		return "", Error{Src: s, Code: 3}
	}
	return "", Error{}
}

// ValidateOne scans a JSON value from s and returns an error if it's invalid,
// otherwise returns s with the scanned value cut.
func ValidateOne(s string) (trailing string, err Error) {
	i := getItrFromPool(s, false, 0)
	defer itrPool.Put(i)
	return i.validate(s)
}

// Validate returns an error if s is invalid JSON.
func Validate(s string) Error {
	i := getItrFromPool(s, false, 0)
	defer itrPool.Put(i)

	trailing, err := i.validate(s)
	if err.IsErr() {
		return err
	}
	if len(trailing) > 0 {
		return Error{Src: s, Index: len(s) - len(trailing), Code: 4}
	}
	return err
}
