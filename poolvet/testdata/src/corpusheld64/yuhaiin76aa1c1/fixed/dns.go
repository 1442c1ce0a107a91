package fixed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

const RcodeSuccess = 0

// Msg stands in for github.com/miekg/dns.Msg.
type Msg struct {
	Id        uint16
	Rcode     int
	Truncated bool
	Answer    []string
}

// Unpack stands in for dns.Msg.Unpack.
func (m *Msg) Unpack(b []byte) error {
	if len(b) < 4 {
		return errors.New("short message")
	}
	m.Id = uint16(b[0])<<8 | uint16(b[1])
	m.Truncated = b[2]&0x02 != 0
	m.Rcode = int(b[3] & 0x0f)
	m.Answer = m.Answer[:0]
	if len(b) > 4 {
		m.Answer = append(m.Answer, string(b[4:]))
	}
	return nil
}

type Request struct {
	dnsRequestBytes []byte
	ID              uint16
	Truncated       bool
}

func (r *Request) Bytes() []byte { return r.dnsRequestBytes }

type TransportFunc func(context.Context, *Request) (Msg, error)

func (f TransportFunc) Do(ctx context.Context, req *Request) (Msg, error) {
	return f(ctx, req)
}

func (f TransportFunc) Close() error { return nil }

type Transport interface {
	Do(ctx context.Context, req *Request) (Msg, error)
	Close() error
}

// NewStream is the shape of the DoH/TCP transports: the answer is read into
// a pooled buffer, parsed, and the buffer goes back to the pool.
func NewStream(roundTrip func(context.Context, []byte) (io.ReadCloser, int64, error)) Transport {
	return TransportFunc(func(ctx context.Context, b *Request) (Msg, error) {
		var p Msg
		body, length, err := roundTrip(ctx, b.Bytes())
		if err != nil {
			return p, fmt.Errorf("doh post failed: %w", err)
		}
		defer body.Close()

		buf := GetBytes(int(length))
		defer PutBytes(buf)

		_, err = io.ReadFull(body, buf)
		if err != nil {
			return Msg{}, fmt.Errorf("read http body failed: %w", err)
		}

		err = p.Unpack(buf)
		return p, err
	})
}

type Group struct {
	dialers []Transport
}

func NewGroup(dialers ...Transport) (*Group, error) {
	if len(dialers) == 0 {
		return nil, errors.New("no dialer")
	}

	return &Group{dialers}, nil
}

func (g *Group) Do(ctx context.Context, req *Request) (Msg, error) {
	count := len(g.dialers)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		resp Msg
		err  error
	}

	first := true

	var err error
	var fallbackMsg *Msg
	ch := make(chan result)          // must be unbuffered
	failBoost := make(chan struct{}) // best effort send on dial failure

	go func() {
		for _, d := range g.dialers {
			if !first {
				timer := time.NewTimer(time.Millisecond * 100)
				select {
				case <-ctx.Done():
					timer.Stop()
					return
				case <-failBoost:
					timer.Stop()
				case <-timer.C:
				}
			}

			first = false

			go func(d Transport) {
				resp, er := d.Do(ctx, req)

				if er != nil {
					select {
					case failBoost <- struct{}{}:
					default:
					}
				}

				select {
				case ch <- result{resp, er}:
				case <-ctx.Done():
				}
			}(d)
		}
	}()

	for {
		select {
		case <-ctx.Done():
			if fallbackMsg != nil {
				return *fallbackMsg, nil
			}
			if err != nil {
				return Msg{}, err
			}
			return Msg{}, ctx.Err()
		case r := <-ch:
			count--

			if r.err == nil {
				msg := r.resp
				if msg.Rcode == RcodeSuccess {
					return msg, nil
				}

				if fallbackMsg == nil {
					fallbackMsg = &msg
				}
			} else {
				err = errors.Join(err, r.err)
			}

			if count == 0 {
				if fallbackMsg != nil {
					return *fallbackMsg, nil
				}
				if err != nil {
					return Msg{}, err
				}
			}
		}
	}
}

type client struct {
	dialer Transport
}

func (c *client) query(ctx context.Context, id uint16, reqBytes []byte) (Msg, error) {
	request := &Request{
		dnsRequestBytes: reqBytes,
		ID:              id,
	}

	var msg Msg
	var err error

	for _, v := range []bool{false, true} {
		request.Truncated = v

		msg, err = c.dialer.Do(ctx, request)
		if err != nil {
			return Msg{}, err
		}

		if msg.Id != id {
			return Msg{}, fmt.Errorf("id not match")
		}

		if !msg.Truncated {
			break
		}
	}

	return msg, nil
}
