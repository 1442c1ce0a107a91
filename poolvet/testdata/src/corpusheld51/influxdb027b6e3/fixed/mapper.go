// Source: https://github.com/influxdata/influxdb/commit/027b6e36e70ffbc9c3f7b775438a470a244d2921
// ("Fix inconsistent results from show measurements", merged in
// https://github.com/influxdata/influxdb/pull/3906).
//
// Bug: remote shard mappers got their connection from a per-node
// gopkg.in/fatih/pool.v2 channel pool; RemoteMapper.Close calls
// PoolConn.Close, which puts the connection back into the pool.
// ShowMeasurementsExecutor.Execute started the goroutine that opens the
// mappers and reads their chunks, but released the mappers with
// `defer e.close()` in Execute itself, i.e. as soon as Execute returned the
// channel. The connections went back into the pool while the goroutine was
// still writing the map request and reading the response on them, so the
// next request checked out a connection still carrying the old response
// ("data from the last request interferes with the new request").
//
// Fix: e.close() is called inside the goroutine after close(out), and the
// connection pool is removed (remote mappers dial a fresh net.Conn).
//
// Domain note: this is InfluxDB 0.9's Go cluster code, not the IOx parts
// named in the brief; used because the listed projects ran dry.
//
// Check: useafterput (the deferred e.close() puts the pooled connections
// back while the goroutine started in Execute still uses them)
package fixed

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sort"
)

// ---- cluster ----

type ShardMapper struct {
	Dial func(nodeID uint64) (net.Conn, error)
}

// NewShardMapper returns a mapper of remote shards.
func NewShardMapper(dial func(nodeID uint64) (net.Conn, error)) *ShardMapper {
	return &ShardMapper{Dial: dial}
}

func (s *ShardMapper) dial(nodeID uint64) (net.Conn, error) {
	return s.Dial(nodeID)
}

func (s *ShardMapper) CreateMapper(nodeID, shardID uint64, stmt string) (Mapper, error) {
	conn, err := s.dial(nodeID)
	if err != nil {
		return nil, err
	}
	return NewRemoteMapper(conn, shardID, stmt), nil
}

type Mapper interface {
	Open() error
	NextChunk() (interface{}, error)
	Close()
}

// RemoteMapper sends a query to a remote node and reads back the chunks.
type RemoteMapper struct {
	shardID uint64
	stmt    string
	conn    net.Conn
}

func NewRemoteMapper(c net.Conn, shardID uint64, stmt string) *RemoteMapper {
	return &RemoteMapper{conn: c, shardID: shardID, stmt: stmt}
}

func (r *RemoteMapper) Open() (err error) {
	defer func() {
		if err != nil {
			r.conn.Close()
		}
	}()
	if err := WriteTLV(r.conn, 1, []byte(r.stmt)); err != nil {
		return err
	}
	return nil
}

func (r *RemoteMapper) NextChunk() (interface{}, error) {
	_, buf, err := ReadTLV(r.conn)
	if err != nil {
		return nil, err
	}
	if len(buf) == 0 {
		return nil, nil
	}
	return []string{string(buf)}, nil
}

func (r *RemoteMapper) Close() {
	r.conn.Close()
}

func WriteTLV(w io.Writer, typ byte, buf []byte) error {
	var hdr [9]byte
	hdr[0] = typ
	binary.BigEndian.PutUint64(hdr[1:], uint64(len(buf)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(buf)
	return err
}

func ReadTLV(r io.Reader) (byte, []byte, error) {
	var hdr [9]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	buf := make([]byte, binary.BigEndian.Uint64(hdr[1:]))
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, nil, err
	}
	return hdr[0], buf, nil
}

// ---- tsdb ----

type Row struct {
	Name   string
	Values []string
	Err    error
}

type ShowMeasurementsExecutor struct {
	mappers []Mapper
}

// Execute begins execution of the query and returns a channel to receive rows.
func (e *ShowMeasurementsExecutor) Execute() <-chan *Row {
	// Create output channel and stream data in a separate goroutine.
	out := make(chan *Row, 0)

	go func() {
		// Open the mappers.
		for _, m := range e.mappers {
			if err := m.Open(); err != nil {
				out <- &Row{Err: err}
				return
			}
		}

		set := map[string]struct{}{}
		for _, m := range e.mappers {
			c, err := m.NextChunk()
			if err != nil {
				out <- &Row{Err: err}
				return
			} else if c == nil {
				continue
			}
			mms, ok := c.([]string)
			if !ok {
				out <- &Row{Err: fmt.Errorf("show measurements mapper returned invalid type: %T", c)}
				return
			}
			for _, mm := range mms {
				set[mm] = struct{}{}
			}
		}

		measurements := make([]string, 0, len(set))
		for mm := range set {
			measurements = append(measurements, mm)
		}
		sort.Strings(measurements)

		if len(measurements) > 0 {
			out <- &Row{Name: "measurements", Values: measurements}
		}

		close(out)
		// It's important that all resources are released when execution completes.
		e.close()
	}()
	return out
}

// close closes the executor such that all resources are released.
func (e *ShowMeasurementsExecutor) close() {
	if e != nil {
		for _, m := range e.mappers {
			m.Close()
		}
	}
}
