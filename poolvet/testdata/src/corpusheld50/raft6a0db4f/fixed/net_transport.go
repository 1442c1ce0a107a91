// Source: https://github.com/hashicorp/raft/commit/6a0db4f1cbc49eaf6d74fb4756cf46e99f8250a2
// ("fix(trans): Reset all encoders when using pooled conns.", net_transport.go)
//
// Bug: NetworkTransport keeps a pool of outgoing connections per target
// (connPool map[ServerAddress][]*netConn). Each netConn carries a buffered
// reader (inside its msgpack decoder), a bufio.Writer and a msgpack encoder.
// returnConn put the netConn back into the pool exactly as the last RPC left
// it, and getConn handed pooled conns out again as they were, so data the
// previous RPC had not consumed (read-ahead bytes in the decoder, unflushed
// bytes in the writer, encoder state) was seen by the next RPC on that conn.
// Followers logged "msgpack decode error ... only encoded map or array can be
// decoded into a struct" and "unknown rpc type 125" after restarts.
//
// Fix: netConn also keeps its bufio.Reader; returnConn resets the decoder,
// encoder, writer and reader (to a writer/reader that panics if used) before
// appending the conn to the pool, and getConn resets all four onto the
// socket again when it takes a conn out of the pool.
//
// Check: noreset (the append of conn to n.connPool in returnConn puts the
// connection back without resetting the buffered reader/writer/encoder/decoder
// state left by the previous RPC)
package fixed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

const connSendBufferSize = 256 * 1024

const (
	rpcAppendEntries uint8 = iota
	rpcRequestVote
)

type ServerAddress string

type ServerID string

type StreamLayer interface {
	Dial(address ServerAddress, timeout time.Duration) (net.Conn, error)
}

type NetworkTransport struct {
	connPool     map[ServerAddress][]*netConn
	connPoolLock sync.Mutex

	maxPool int

	shutdown     bool
	shutdownLock sync.Mutex

	stream  StreamLayer
	timeout time.Duration

	msgpackUseNewTimeFormat bool
}

type zs struct{}

func (zs) Read(buf []byte) (int, error) {
	panic("Read should never be called")
}

func (zs) Write(buf []byte) (int, error) {
	panic("Write should never be called")
}

var xplod = zs{}

func (n *NetworkTransport) encoder(to io.Writer) *Encoder {
	return NewEncoder(to, &MsgpackHandle{BasicHandle: BasicHandle{TimeNotBuiltin: !n.msgpackUseNewTimeFormat}})
}

type netConn struct {
	target ServerAddress
	conn   net.Conn
	r      *bufio.Reader
	w      *bufio.Writer
	dec    *Decoder
	enc    *Encoder
}

func (n *netConn) Release() error {
	return n.conn.Close()
}

var ErrTransportShutdown = errors.New("transport shutdown")

func (n *NetworkTransport) IsShutdown() bool {
	n.shutdownLock.Lock()
	defer n.shutdownLock.Unlock()
	return n.shutdown
}

// getPooledConn is used to grab a pooled connection.
func (n *NetworkTransport) getPooledConn(target ServerAddress) *netConn {
	n.connPoolLock.Lock()
	defer n.connPoolLock.Unlock()

	conns, ok := n.connPool[target]
	if !ok || len(conns) == 0 {
		return nil
	}

	var conn *netConn
	num := len(conns)
	conn, conns[num-1] = conns[num-1], nil
	n.connPool[target] = conns[:num-1]
	return conn
}

// getConn is used to get a connection from the pool.
func (n *NetworkTransport) getConn(target ServerAddress) (*netConn, error) {
	// Check for a pooled conn
	if conn := n.getPooledConn(target); conn != nil {
		// Sanity reset.  Discard data that might not have been consumed the last time the connection was used.
		conn.r.Reset(conn.conn)
		conn.w.Reset(conn.conn)
		conn.enc.Reset(conn.w)
		conn.dec.Reset(conn.r)
		return conn, nil
	}

	// Dial a new connection
	conn, err := n.stream.Dial(target, n.timeout)
	if err != nil {
		return nil, err
	}
	rBuf := bufio.NewReader(conn)
	wBuf := bufio.NewWriterSize(conn, connSendBufferSize)
	dec := NewDecoder(rBuf, &MsgpackHandle{})
	enc := n.encoder(wBuf)
	res := &netConn{target: target, conn: conn, dec: dec, enc: enc, r: rBuf, w: wBuf}
	return res, nil
}

// returnConn returns a connection back to the pool.
func (n *NetworkTransport) returnConn(conn *netConn) {
	n.connPoolLock.Lock()
	defer n.connPoolLock.Unlock()

	key := conn.target
	conns := n.connPool[key]

	if !n.IsShutdown() && len(conns) < n.maxPool {
		conn.dec.Reset(xplod)
		conn.enc.Reset(xplod)
		conn.w.Reset(xplod)
		conn.r.Reset(xplod)
		n.connPool[key] = append(conns, conn)
	} else {
		conn.Release()
	}
}

// genericRPC handles a simple request/response RPC.
func (n *NetworkTransport) genericRPC(id ServerID, target ServerAddress, rpcType uint8, args interface{}, resp interface{}) error {
	// Get a conn
	conn, err := n.getConn(target)
	if err != nil {
		return err
	}

	// Set a deadline
	if n.timeout > 0 {
		conn.conn.SetDeadline(time.Now().Add(n.timeout))
	}

	// Send the RPC
	if err = sendRPC(conn, rpcType, args); err != nil {
		return err
	}

	// Decode the response
	canReturn, err := decodeResponse(conn, resp)
	if canReturn {
		n.returnConn(conn)
	}
	return err
}

// decodeResponse is used to decode an RPC response and reports whether
// the connection can be reused.
func decodeResponse(conn *netConn, resp interface{}) (bool, error) {
	// Decode the error if any
	var rpcError string
	if err := conn.dec.Decode(&rpcError); err != nil {
		conn.Release()
		return false, err
	}

	// Decode the response
	if err := conn.dec.Decode(resp); err != nil {
		conn.Release()
		return false, err
	}

	// Format an error if any
	if rpcError != "" {
		return true, fmt.Errorf("%s", rpcError)
	}
	return true, nil
}

// sendRPC is used to encode and send the RPC.
func sendRPC(conn *netConn, rpcType uint8, args interface{}) error {
	// Write the request type
	if err := conn.w.WriteByte(rpcType); err != nil {
		conn.Release()
		return err
	}

	// Send the request
	if err := conn.enc.Encode(args); err != nil {
		conn.Release()
		return err
	}

	// Flush
	if err := conn.w.Flush(); err != nil {
		conn.Release()
		return err
	}
	return nil
}
