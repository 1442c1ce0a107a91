package useafterput

import "sync"

type workspace struct{ data []float64 }

var workspacePool = sync.Pool{New: func() any { return new(workspace) }}

func getWorkspace() *workspace { return workspacePool.Get().(*workspace) }

func putWorkspace(w *workspace) { workspacePool.Put(w) }

func (w *workspace) mul(a, b *workspace) {
	for i := range w.data {
		w.data[i] = a.data[i] * b.data[i]
	}
}

// Three workspaces swapped in a loop (gonum's Dense.Pow): after the loop
// each variable holds one of them, never the same one, so putting w does
// not make s or x used after a Put. Not reported.
func power(n int) {
	w := getWorkspace()
	s := getWorkspace()
	x := getWorkspace()
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			x.mul(w, s)
			w, x = x, w
		}
		if n != 1 {
			x.mul(s, s)
			s, x = x, s
		}
	}
	putWorkspace(w)
	putWorkspace(s)
	putWorkspace(x)
}
