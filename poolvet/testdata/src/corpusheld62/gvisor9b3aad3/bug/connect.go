// Source: https://github.com/google/gvisor/commit/9b3aad33c4470908953b7b548b12cba77799f342
// ("Use a pool of arrays to avoid slice headers from escaping in TCP options
// pool"), pkg/tcpip/transport/tcp/connect.go.
//
// Bug: netstack keeps the 40-byte TCP option buffers of outgoing segments in
// a sync.Pool (optionPool) as []byte values. makeSynOptions takes one with
// getOptions, encodes the SYN options into it and returns options[:offset];
// after the segment is sent, putOptions reslices it to full capacity and puts
// the slice back. "By putting slices into the pool, the slice header
// escapes": every Put boxes the slice header into an interface, one
// allocation on every SYN/segment send path.
//
// Fix: the pool stores *[maxOptionSize]byte. getOptions slices the array, and
// putOptions converts the slice back to a pointer to its backing array
// (optionsToArray, in connect_unsafe.go) and puts that pointer.
//
// The tcpip/header option encoders are re-created in the package; the
// padding check, route and TTL/TOS arguments of sendSynTCP are trimmed.
//
// Check: nonpointer (optionPool.Put in putOptions puts a []byte value into a
// sync.Pool)
package bug

import (
	"encoding/binary"
	"sync"
)

const (
	// maxOptionSize is the maximum size of TCP options.
	maxOptionSize = 40
)

// TCP option kinds, as in tcpip/header.
const (
	TCPOptionNOP           = 1
	TCPOptionMSS           = 2
	TCPOptionWS            = 3
	TCPOptionSACKPermitted = 4
	TCPOptionTS            = 8
)

// TCPSynOptions is used to return the parsed TCP Options in a syn segment.
type TCPSynOptions struct {
	MSS           uint16
	WS            int
	TS            bool
	TSVal         uint32
	TSEcr         uint32
	SACKPermitted bool
}

// EncodeMSSOption encodes the MSS TCP option with the provided MSS values in
// the supplied buffer.
func EncodeMSSOption(mss uint32, b []byte) int {
	b[0], b[1], b[2], b[3] = TCPOptionMSS, 4, byte(mss>>8), byte(mss)
	return 4
}

// EncodeWSOption encodes the WS TCP option with the WS value in the provided
// buffer.
func EncodeWSOption(ws int, b []byte) int {
	b[0], b[1], b[2] = TCPOptionWS, 3, uint8(ws)
	return 3
}

// EncodeTSOption encodes the provided tsVal and tsEcr values as a TCP
// timestamp option into the provided buffer.
func EncodeTSOption(tsVal, tsEcr uint32, b []byte) int {
	b[0], b[1] = TCPOptionTS, 10
	binary.BigEndian.PutUint32(b[2:], tsVal)
	binary.BigEndian.PutUint32(b[6:], tsEcr)
	return 10
}

// EncodeSACKPermittedOption encodes a SACKPermitted option into the provided
// buffer.
func EncodeSACKPermittedOption(b []byte) int {
	b[0], b[1] = TCPOptionSACKPermitted, 2
	return 2
}

// EncodeNOP adds an explicit NOP to the option list.
func EncodeNOP(b []byte) int {
	b[0] = TCPOptionNOP
	return 1
}

var optionPool = sync.Pool{
	New: func() interface{} {
		return make([]byte, maxOptionSize)
	},
}

func getOptions() []byte {
	return optionPool.Get().([]byte)
}

func putOptions(options []byte) {
	// Reslice to full capacity.
	optionPool.Put(options[0:cap(options)]) // want `nonpointer`
}

func makeSynOptions(opts TCPSynOptions) []byte {
	options := getOptions()

	// Always encode the mss.
	offset := EncodeMSSOption(uint32(opts.MSS), options)

	// Special ordering is required here. If both TS and SACK are enabled,
	// then the SACK option precedes TS, with no padding. If they are
	// enabled individually, then we see padding before the option.
	if opts.TS && opts.SACKPermitted {
		offset += EncodeSACKPermittedOption(options[offset:])
		offset += EncodeTSOption(opts.TSVal, opts.TSEcr, options[offset:])
	} else if opts.TS {
		offset += EncodeNOP(options[offset:])
		offset += EncodeNOP(options[offset:])
		offset += EncodeTSOption(opts.TSVal, opts.TSEcr, options[offset:])
	} else if opts.SACKPermitted {
		offset += EncodeNOP(options[offset:])
		offset += EncodeNOP(options[offset:])
		offset += EncodeSACKPermittedOption(options[offset:])
	}

	// Initialize the WS option.
	if opts.WS >= 0 {
		offset += EncodeNOP(options[offset:])
		offset += EncodeWSOption(opts.WS, options[offset:])
	}

	return options[:offset]
}

type endpoint struct {
	sendErrors int
	// sendTCP stands in for the endpoint's segment writer.
	sendTCP func(flags byte, options []byte) error
}

func (e *endpoint) sendSynTCP(flags byte, opts TCPSynOptions) error {
	options := makeSynOptions(opts)
	// We ignore SYN send errors and let the callers re-attempt send.
	if err := e.sendTCP(flags, options); err != nil {
		e.sendErrors++
	}
	putOptions(options)
	return nil
}
