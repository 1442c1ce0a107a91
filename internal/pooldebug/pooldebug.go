// Package pooldebug holds poolkit's debug settings (POOLDEBUG) and routes
// debug reports, for package pool and package bytepool alike.
package pooldebug

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Settings are the parsed POOLDEBUG settings.
type Settings struct {
	DoublePut bool // doubleput=1: Put of an object already idle in a pool is reported
	Poison    bool // poison=1: bytepool fills slices on Put and checks them on Get
	Leak      int  // leak=N: 1 in N objects handed out by Get are tracked; 0: off
	raw       string
}

// On reports whether any check is enabled.
func (s *Settings) On() bool { return s.DoublePut || s.Poison || s.Leak > 0 }

var cur atomic.Pointer[Settings]

// On is true when any check is enabled: the one word that Get and Put read
// to decide whether to take their debug paths.
var On atomic.Bool

// Epoch counts calls to Set, so that state a pool kept for an earlier
// setting (its set of idle objects) can be recognized as stale.
var Epoch atomic.Uint64

func init() {
	s, err := Parse(os.Getenv("POOLDEBUG"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "poolkit: POOLDEBUG: %v\n", err)
	}
	cur.Store(s)
	On.Store(s.On())
}

// Current returns the settings in effect; never nil.
func Current() *Settings { return cur.Load() }

// Set replaces the settings and returns the previous ones' text.
func Set(s *Settings) (prev string) {
	Epoch.Add(1)
	prev = cur.Swap(s).raw
	On.Store(s.On())
	return prev
}

// Parse parses a GODEBUG-style list: comma-separated key=value pairs with
// keys doubleput, poison and leak. It returns the settings it could parse
// and an error naming the first pair it could not.
func Parse(text string) (*Settings, error) {
	s := &Settings{raw: text}
	var firstErr error
	for _, kv := range strings.Split(text, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "doubleput", "poison", "leak":
		default:
			if firstErr == nil {
				firstErr = fmt.Errorf("unknown setting %q (known: doubleput, poison, leak)", k)
			}
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			if firstErr == nil {
				firstErr = fmt.Errorf("%q: want %s=N with N >= 0", kv, k)
			}
			continue
		}
		switch k {
		case "doubleput":
			s.DoublePut = n != 0
		case "poison":
			s.Poison = n != 0
		case "leak":
			s.Leak = n
		}
	}
	return s, firstErr
}

// Report kinds.
const (
	KindLeak      = "leak"
	KindDoublePut = "double Put"
	KindPoison    = "modified after Put"
	KindSubslice  = "Put of a sub-slice" // bytepool: a slice that does not start its backing array
)

// Reporter, if set, receives every report; see pool.SetReporter.
var Reporter atomic.Pointer[func(kind, typ, msg, stack string)]

// output is where the default reporter writes leak reports: os.Stderr
// unless a test replaced it.
var output atomic.Pointer[io.Writer]

// SetOutput replaces the default reporter's output (nil: os.Stderr) and
// returns the previous one; for tests.
func SetOutput(w io.Writer) (prev io.Writer) {
	var old *io.Writer
	if w == nil {
		old = output.Swap(nil)
	} else {
		old = output.Swap(&w)
	}
	if old == nil {
		return nil
	}
	return *old
}

// Report routes a report to the Reporter. Without one, leaks are printed on
// standard error as a line beginning "poolkit: leak:" followed by the stack,
// and the other kinds panic with msg, which the caller prefixes with the
// function's name.
func Report(kind, typ, msg, stack string) {
	if f := Reporter.Load(); f != nil {
		(*f)(kind, typ, msg, stack)
		return
	}
	if kind == KindLeak {
		var w io.Writer = os.Stderr
		if o := output.Load(); o != nil {
			w = *o
		}
		fmt.Fprintf(w, "poolkit: leak: %s\n%s", msg, stack)
		return
	}
	panic(msg)
}
