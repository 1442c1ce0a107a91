package unbounded

import (
	"strconv"
	"sync"
)

// Entries whose buffer the package bounds before every Put but one: the
// syslog writer grows a scratch entry with the caller's whole line and puts
// it back unchecked (phuslu/log cdc269d).
type logLine struct {
	buf []byte
}

const maxLineCap = 1 << 16

var lines = sync.Pool{New: func() any { return &logLine{buf: make([]byte, 0, 512)} }}

func finishLine(l *logLine, write func([]byte)) {
	write(l.buf)
	if cap(l.buf) <= maxLineCap {
		l.buf = l.buf[:0]
		lines.Put(l)
	}
}

func syslogLine(msg []byte, pid int, write func([]byte)) {
	l := lines.Get().(*logLine)
	defer lines.Put(l) // want `l \(\*logLine\) is put into the pool without a capacity check after its field buf grew here \(line 33\), while the package checks the size before another Put of this type \(line 23\)`
	b := append(l.buf[:0], '<', '6', '>')
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, msg...)
	l.buf = b
	write(b)
}

// The fix checks the size in a deferred closure.
func syslogLineFixed(msg []byte, pid int, write func([]byte)) {
	l := lines.Get().(*logLine)
	defer func(l *logLine) {
		if cap(l.buf) <= maxLineCap {
			lines.Put(l)
		}
	}(l)
	b := append(l.buf[:0], '<', '6', '>')
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, msg...)
	l.buf = b
	write(b)
}

// A fixed-size header is no growth: not reported.
func headerLine(write func([]byte)) {
	l := lines.Get().(*logLine)
	l.buf = append(l.buf[:0], '<', '6', '>')
	write(l.buf)
	lines.Put(l)
}

// A type no Put of which is checked: this rule says nothing (the package
// has no bound to be unlike).
type scratch struct{ buf []byte }

var scratches = sync.Pool{New: func() any { return new(scratch) }}

func useScratch(msg []byte, write func([]byte)) {
	s := scratches.Get().(*scratch)
	s.buf = append(s.buf[:0], msg...)
	write(s.buf)
	scratches.Put(s)
}
