package bug

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

type Response interface {
	Msg() (Msg, error)
	Release()
}

type BytesResponse []byte

func (b BytesResponse) Msg() (msg Msg, err error) {
	var p Msg
	err = p.Unpack(b)
	return p, err
}

func (b BytesResponse) Release() { PutBytes(b) }

type MsgResponse Msg

func (m MsgResponse) Msg() (msg Msg, err error) {
	return Msg(m), nil
}
func (m MsgResponse) Release() {}

type TransportFunc func(context.Context, *Request) (Response, error)

func (f TransportFunc) Do(ctx context.Context, req *Request) (Response, error) {
	return f(ctx, req)
}

func (f TransportFunc) Close() error { return nil }

type Transport interface {
	Do(ctx context.Context, req *Request) (Response, error)
	Close() error
}

// NewStream is the shape of the DoH/TCP transports: the answer is read into
// a pooled buffer that is handed out as a BytesResponse.
func NewStream(roundTrip func(context.Context, []byte) (io.ReadCloser, int64, error)) Transport {
	return TransportFunc(func(ctx context.Context, b *Request) (Response, error) {
		body, length, err := roundTrip(ctx, b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("doh post failed: %w", err)
		}
		defer body.Close()

		buf := GetBytes(int(length))

		_, err = io.ReadFull(body, buf)
		if err != nil {
			PutBytes(buf)
			return nil, fmt.Errorf("read http body failed: %w", err)
		}

		return BytesResponse(buf), nil
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

func (g *Group) Do(ctx context.Context, req *Request) (Response, error) {
	count := len(g.dialers)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		resp Response
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
					if er == nil {
						resp.Release()
					}
				}
			}(d)
		}
	}()

	for {
		select {
		case <-ctx.Done():
			if fallbackMsg != nil {
				return MsgResponse(*fallbackMsg), nil
			}
			if err != nil {
				return nil, err
			}
			return nil, ctx.Err()
		case r := <-ch:
			count--

			if r.err == nil {
				msg, er := r.resp.Msg()
				r.resp.Release()
				if er == nil {
					if msg.Rcode == RcodeSuccess {
						return r.resp, nil // want `useafterput`
					}

					if fallbackMsg == nil {
						fallbackMsg = &msg
					}
				} else {
					err = errors.Join(err, er)
				}
			} else {
				err = errors.Join(err, r.err)
			}

			if count == 0 {
				if fallbackMsg != nil {
					return MsgResponse(*fallbackMsg), nil
				}
				if err != nil {
					return nil, err
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

	for _, v := range []bool{false, true} {
		request.Truncated = v

		resp, err := c.dialer.Do(ctx, request)
		if err != nil {
			return Msg{}, err
		}
		defer resp.Release()

		if msg, err = resp.Msg(); err != nil {
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
