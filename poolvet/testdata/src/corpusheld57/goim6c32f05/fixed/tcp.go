// Source: https://github.com/Terry-Mao/goim/commit/6c32f058415a950df243c45b51d4c901b40c8cbb
// ("fix buf put back bug")
//
// Bug: the comet TCP path took a bufio.Reader and a bufio.Writer from the
// per-round sync.Pools, called server.serveTCP, and put both back when
// serveTCP returned. But serveTCP starts the dispatchTCP goroutine with
// the writer (go server.dispatchTCP(conn, wr, ...)) and returns as soon
// as the reader side fails; dispatchTCP can still be flushing responses
// into wr after it has been Reset(nil) and handed to another connection.
//
// Fix: serveTCP/dispatchTCP receive the pools; the reader goroutine puts
// the reader back when it exits, and the dispatch goroutine puts the
// writer back when it exits. serveTCP (the caller) no longer puts either.
//
// Check: useafterput (PutBufioWriter in serveTCP returns wr to the pool
// after it was handed to the dispatchTCP goroutine, which keeps using it)
package fixed

import (
	"bufio"
	"encoding/binary"
	"io"
	"log"
	"net"
	"sync"
)

const (
	maxPackIntBuf = 4
	ReadBufSize   = 1024
	WriteBufSize  = 1024
	ProtoFinish   = 0
	ProtoReady    = 1
)

type Proto struct {
	Operation int32
	Body      []byte
}

type Channel struct {
	Signal   chan int
	SvrProto chan *Proto
}

func NewChannel() *Channel {
	return &Channel{Signal: make(chan int, 16), SvrProto: make(chan *Proto, 16)}
}

type Server struct {
	round *Round
}

func serveTCP(server *Server, conn *net.TCPConn, r int) {
	var (
		// bufpool
		rrp = server.round.Reader(r) // reader
		wrp = server.round.Writer(r) // writer
		// buf
		rr = NewBufioReaderSize(rrp, conn, ReadBufSize)  // reader buf
		wr = NewBufioWriterSize(wrp, conn, WriteBufSize) // writer buf
	)
	server.serveTCP(conn, rrp, wrp, rr, wr)
}

func (server *Server) serveTCP(conn *net.TCPConn, rrp, wrp *sync.Pool, rr *bufio.Reader, wr *bufio.Writer) {
	var (
		err error
		ch  = NewChannel()
		pb  = make([]byte, maxPackIntBuf)
	)
	// hanshake ok start dispatch goroutine
	go server.dispatchTCP(conn, wrp, wr, ch)
	for {
		if err = server.readTCPRequest(rr, pb); err != nil {
			log.Printf("read client request error(%v)", err)
			goto failed
		}
		select {
		case ch.Signal <- ProtoReady:
		default:
		}
	}
failed:
	if err = conn.Close(); err != nil {
		log.Printf("reader: conn.Close() error(%v)", err)
	}
	PutBufioReader(rrp, rr)
	select {
	case ch.Signal <- ProtoFinish:
	default:
	}
}

func (server *Server) dispatchTCP(conn *net.TCPConn, wrp *sync.Pool, wr *bufio.Writer, ch *Channel) {
	var (
		p   *Proto
		err error
		sig int
		pb  = make([]byte, maxPackIntBuf) // avoid false sharing
	)
	for {
		if sig = <-ch.Signal; sig == ProtoFinish {
			goto failed
		}
		for {
			select {
			case p = <-ch.SvrProto:
			default:
				p = nil
			}
			if p == nil {
				break
			}
			if err = server.writeTCPResponse(wr, pb, p); err != nil {
				goto failed
			}
		}
	}
failed:
	if err = conn.Close(); err != nil {
		log.Printf("conn.Close() error(%v)", err)
	}
	PutBufioWriter(wrp, wr)
}

func (server *Server) readTCPRequest(rr *bufio.Reader, pb []byte) error {
	_, err := io.ReadFull(rr, pb[:4])
	return err
}

func (server *Server) writeTCPResponse(wr *bufio.Writer, pb []byte, p *Proto) error {
	binary.BigEndian.PutUint32(pb[:4], uint32(len(p.Body)))
	if _, err := wr.Write(pb[:4]); err != nil {
		return err
	}
	if _, err := wr.Write(p.Body); err != nil {
		return err
	}
	return wr.Flush()
}
