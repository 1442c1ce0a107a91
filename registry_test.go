package pool_test

import (
	"strings"
	"testing"

	"github.com/poolkit/pool"
)

func TestRegistry(t *testing.T) {
	var a, b pool.Pool[*int]
	pool.Register("reg-b", &b)
	pool.Register("reg-a", &a)
	defer pool.Unregister("reg-a")
	defer pool.Unregister("reg-b")
	a.Get()
	var names []string
	var gets uint64
	for _, n := range pool.Snapshot() {
		if strings.HasPrefix(n.Name, "reg-") {
			names = append(names, n.Name)
			gets += n.Gets
		}
	}
	if strings.Join(names, ",") != "reg-a,reg-b" || gets != 1 {
		t.Fatalf("Snapshot names %v, gets %d; want reg-a,reg-b sorted and 1 get", names, gets)
	}
	for _, tt := range []struct {
		name string
		f    func()
	}{
		{"duplicate", func() { pool.Register("reg-a", &a) }},
		{"empty", func() { pool.Register(" ", &a) }},
		{"nil func", func() { pool.RegisterFunc("reg-nil", nil) }},
		// An outside test found a nil *Pool accepted here and Snapshot
		// (and the expvar variable) panicking later, far from the mistake.
		{"nil pool", func() { pool.Register[int]("reg-nilpool", nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if msg, _ := recover().(string); !strings.HasPrefix(msg, "pool.Register: ") {
					t.Fatalf("panic %q; want a pool.Register: message", msg)
				}
			}()
			tt.f()
		})
	}
	_ = pool.Snapshot() // refused registrations left nothing behind that panics
	pool.Unregister("reg-a")
	pool.Unregister("no-such-pool") // ignored
	for _, n := range pool.Snapshot() {
		if n.Name == "reg-a" {
			t.Fatal("reg-a still in Snapshot after Unregister")
		}
	}
}
