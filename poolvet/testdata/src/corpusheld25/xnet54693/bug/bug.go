// Package bug reproduces the shape of golang/go#54693, fixed in golang.org/x/net
// by commit 02166a98 (https://go-review.googlesource.com/c/net/+/425915,
// "internal/socket: properly reset Iov and Control on the msghdr"): ReadBatch /
// WriteBatch take a *mmsgTmps from a sync.Pool wrapper (mmsgTmpsPool). Its
// packer keeps pre-allocated mmsghdr, iovec and sockaddr slices and only
// re-slices them to the new message count, and msghdr.pack sets Control only
// when the message has OOB data. Nothing cleared the headers between uses, so a
// batch without OOB data inherited the Control pointer and length of the
// previous caller's message and the kernel read stale ancillary data.
//
// Check: noreset (the pooled *mmsgTmps goes back, and comes out again, with the
// previous batch's headers in its packer slices).
package bug

import (
	"errors"
	"sync"
)

const sizeofSockaddrInet6 = 28

type iovec struct {
	Base *byte
	Len  uint64
}

func (v *iovec) set(b []byte) {
	v.Len = uint64(len(b))
	if len(b) == 0 {
		v.Base = nil
		return
	}
	v.Base = &b[0]
}

type msghdr struct {
	Name       *byte
	Namelen    uint32
	Iov        *iovec
	Iovlen     uint64
	Control    *byte
	Controllen uint64
	Flags      int32
}

func (h *msghdr) setIov(vs []iovec) {
	l := len(vs)
	if l == 0 {
		return
	}
	h.Iov = &vs[0]
	h.Iovlen = uint64(l)
}

func (h *msghdr) setControl(b []byte) {
	h.Control = &b[0]
	h.Controllen = uint64(len(b))
}

func (h *msghdr) pack(vs []iovec, bs [][]byte, oob []byte, sa []byte) {
	for i := range vs {
		vs[i].set(bs[i])
	}
	h.setIov(vs)
	if len(oob) > 0 {
		h.setControl(oob)
	}
	if sa != nil {
		h.Name = &sa[0]
		h.Namelen = uint32(len(sa))
	} else {
		h.Name = nil
		h.Namelen = 0
	}
}

type mmsghdr struct {
	Hdr msghdr
	Len uint32
}

type mmsghdrs []mmsghdr

// Message is one datagram of a batch.
type Message struct {
	Buffers [][]byte
	OOB     []byte
	N, NN   int
}

type mmsghdrsPacker struct {
	hs        mmsghdrs
	sockaddrs []byte
	vs        []iovec
}

func (p *mmsghdrsPacker) prepare(ms []Message) {
	n := len(ms)
	if n <= cap(p.hs) {
		p.hs = p.hs[:n]
	} else {
		p.hs = make(mmsghdrs, n)
	}
	if n*sizeofSockaddrInet6 <= cap(p.sockaddrs) {
		p.sockaddrs = p.sockaddrs[:n*sizeofSockaddrInet6]
	} else {
		p.sockaddrs = make([]byte, n*sizeofSockaddrInet6)
	}
	nb := 0
	for _, m := range ms {
		nb += len(m.Buffers)
	}
	if nb <= cap(p.vs) {
		p.vs = p.vs[:nb]
	} else {
		p.vs = make([]iovec, nb)
	}
}

func (p *mmsghdrsPacker) pack(ms []Message) mmsghdrs {
	p.prepare(ms)
	hs := p.hs
	vsRest := p.vs
	for i := range hs {
		nvs := len(ms[i].Buffers)
		vs := vsRest[:nvs]
		vsRest = vsRest[nvs:]
		hs[i].Hdr.pack(vs, ms[i].Buffers, ms[i].OOB, nil)
	}
	return hs
}

type mmsgTmps struct {
	packer mmsghdrsPacker
}

type mmsgTmpsPool struct {
	p sync.Pool
}

var defaultMmsgTmpsPool = mmsgTmpsPool{
	p: sync.Pool{
		New: func() interface{} {
			return new(mmsgTmps)
		},
	},
}

func (p *mmsgTmpsPool) Get() *mmsgTmps {
	return p.p.Get().(*mmsgTmps)
}

func (p *mmsgTmpsPool) Put(tmps *mmsgTmps) {
	p.p.Put(tmps) // want `noreset`
}

// sendmmsg stands in for the raw system call.
var sendmmsg = func(hs mmsghdrs) (int, error) { return len(hs), nil }

// WriteBatch sends ms with one sendmmsg call.
func WriteBatch(ms []Message) (int, error) {
	if len(ms) == 0 {
		return 0, errors.New("empty batch")
	}
	tmps := defaultMmsgTmpsPool.Get()
	defer defaultMmsgTmpsPool.Put(tmps)

	hs := tmps.packer.pack(ms)
	n, err := sendmmsg(hs)
	if err != nil {
		return n, err
	}
	for i := 0; i < n; i++ {
		ms[i].N = int(hs[i].Len)
		ms[i].NN = int(hs[i].Hdr.Controllen)
	}
	return n, nil
}
