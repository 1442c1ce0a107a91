// Package bug reproduces the shape of seaweedfs/seaweedfs#8762
// (https://github.com/seaweedfs/seaweedfs/pull/8762, fix commit
// https://github.com/seaweedfs/seaweedfs/commit/3faab4a0049b00f056f2cb9cb3a3e635baf1d668):
// the Kafka gateway's HandleConn read every request into a buffer from the
// slab pool and registered `defer mem.Free(messageBuf)` inside its read loop,
// then handed a request whose body is a slice of that buffer to worker
// goroutines. The deferred frees run when HandleConn returns, and, being
// registered after the cleanup defer that waits for the workers, they run
// before it: workers still draining the queue read request bodies whose
// buffers are already back in the pool (and every request pins a buffer for
// the life of the connection). The fix copies the message into owned memory
// and frees the pooled buffer right away.
//
// Check: useafterput (a slice of the pooled buffer is handed to the workers,
// which read it after the deferred free has put it back; report at the send).
package bug

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
)

var slabPool = sync.Pool{New: func() interface{} { b := make([]byte, 0, 64<<10); return &b }}

func allocate(size int) []byte {
	p := slabPool.Get().(*[]byte)
	if cap(*p) < size {
		*p = make([]byte, size)
	}
	return (*p)[:size]
}

func free(buf []byte) {
	if cap(buf) > 1<<20 {
		return
	}
	slabPool.Put(&buf)
}

type kafkaRequest struct {
	correlationID uint32
	apiKey        uint16
	apiVersion    uint16
	requestBody   []byte
	ctx           context.Context
}

type kafkaResponse struct {
	correlationID uint32
	response      []byte
	err           error
}

type Handler struct {
	process func(req *kafkaRequest) ([]byte, error)
}

func (h *Handler) processRequestSync(req *kafkaRequest) ([]byte, error) {
	return h.process(req)
}

func (h *Handler) HandleConn(ctx context.Context, conn net.Conn) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	r := bufio.NewReader(conn)
	w := bufio.NewWriter(conn)
	defer w.Flush()

	dataChan := make(chan *kafkaRequest, 100)
	responseChan := make(chan *kafkaResponse, 100)
	var wg sync.WaitGroup

	// Response writer.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case resp, ok := <-responseChan:
				if !ok {
					return
				}
				var hdr [8]byte
				binary.BigEndian.PutUint32(hdr[0:4], uint32(len(resp.response)+4))
				binary.BigEndian.PutUint32(hdr[4:8], resp.correlationID)
				w.Write(hdr[:])
				w.Write(resp.response)
				w.Flush()
			case <-ctx.Done():
				return
			}
		}
	}()

	// Data plane worker: reads the request body while the read loop goes on.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for req := range dataChan {
			response, err := h.processRequestSync(req)
			select {
			case responseChan <- &kafkaResponse{correlationID: req.correlationID, response: response, err: err}:
			case <-ctx.Done():
			}
		}
	}()

	defer func() {
		// stop accepting requests, wait for the workers, then stop the writer
		close(dataChan)
		wg.Wait()
		close(responseChan)
	}()

	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}

		var sizeBytes [4]byte
		if _, err := io.ReadFull(r, sizeBytes[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("read message size: %w", err)
		}
		size := binary.BigEndian.Uint32(sizeBytes[:])
		if size == 0 || size > 1024*1024 {
			return fmt.Errorf("message size %d exceeds limit", size)
		}

		// Pooled buffer to spare the GC; given back when HandleConn returns.
		messageBuf := allocate(int(size))
		defer free(messageBuf)
		if _, err := io.ReadFull(r, messageBuf); err != nil {
			return fmt.Errorf("read message: %w", err)
		}

		if len(messageBuf) < 8 {
			return fmt.Errorf("message too short")
		}
		apiKey := binary.BigEndian.Uint16(messageBuf[0:2])
		apiVersion := binary.BigEndian.Uint16(messageBuf[2:4])
		correlationID := binary.BigEndian.Uint32(messageBuf[4:8])

		// skip the client id
		bodyOffset := 8
		if len(messageBuf) < bodyOffset+2 {
			return fmt.Errorf("invalid header: missing client_id length")
		}
		clientIDLen := int16(binary.BigEndian.Uint16(messageBuf[bodyOffset : bodyOffset+2]))
		bodyOffset += 2
		if clientIDLen >= 0 {
			if len(messageBuf) < bodyOffset+int(clientIDLen) {
				return fmt.Errorf("invalid header: client_id truncated")
			}
			bodyOffset += int(clientIDLen)
		}
		requestBody := messageBuf[bodyOffset:]

		req := &kafkaRequest{
			correlationID: correlationID,
			apiKey:        apiKey,
			apiVersion:    apiVersion,
			requestBody:   requestBody,
			ctx:           ctx,
		}
		select {
		case dataChan <- req: // want `useafterput`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
