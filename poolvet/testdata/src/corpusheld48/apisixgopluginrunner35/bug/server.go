// Source: https://github.com/apache/apisix-go-plugin-runner/pull/35
// Fix commit: https://github.com/apache/apisix-go-plugin-runner/commit/e025a1736941452a0e6da1fc05ea3b1a16bc0f14
// ("fix: a race when reusing flatbuffers.Builder").
//
// Bug: the APISIX Go plugin runner keeps *flatbuffers.Builder in a sync.Pool
// (util.GetBuilder/util.PutBuilder; PutBuilder Resets the builder, which keeps
// its backing array). internal/server took out = bd.FinishedBytes(), a slice
// of the builder's backing array, then called util.PutBuilder(bd) right away
// and kept using out: dispatchRPC measured and returned it, and handleConn
// wrote it to the APISIX connection. generateErrorReport did the same for the
// error report. Another connection's goroutine can get the same builder from
// the pool and build its response over the bytes still being written.
// Fix: dispatchRPC returns the builder itself; handleConn takes
// FinishedBytes, writes header and body, and only then calls
// util.PutBuilder(bd); generateErrorReport returns the builder; the size
// check moved to checkIfDataTooLarge, which puts the builder only when it
// replaces it with an error report.
// Check: useafterput (out, the builder's FinishedBytes, is used and returned
// after util.PutBuilder(bd): the return in generateErrorReport and the
// len(out) that starts dispatchRPC's use of it)
//
// Note: PutBuilder has no size cap in either twin; only the use of
// FinishedBytes after PutBuilder is the bug this case is about.
package bug

import (
	"encoding/binary"
	"fmt"
	"log"
	"net"
)

var (
	dealRPCTest func(buf []byte) (*Builder, error)
)

func generateErrorReport(err error) (ty byte, out []byte) {
	if err == ErrNotFound {
		log.Printf("warn: %s", err)
	} else {
		log.Printf("error: %s", err)
	}

	ty = RPCError
	bd := ReportError(err)
	out = bd.FinishedBytes()
	PutBuilder(bd)
	return // want `useafterput`
}

func recoverPanic() {
	if err := recover(); err != nil {
		log.Printf("panic recovered: %s", err)
	}
}

func dispatchRPC(ty byte, in []byte, conn net.Conn) (byte, []byte) {
	var err error
	var bd *Builder
	switch ty {
	case RPCPrepareConf:
		bd, err = PrepareConf(in)
	case RPCHTTPReqCall:
		bd, err = HTTPReqCall(in)
	case RPCTest: // Just for test
		bd, err = dealRPCTest(in)
	default:
		err = UnknownType{ty}
	}

	var out []byte
	if err != nil {
		ty, out = generateErrorReport(err)
	} else {
		out = bd.FinishedBytes()
		PutBuilder(bd)
		size := len(out) // want `useafterput`
		if size > MaxDataSize {
			err = fmt.Errorf("the max length of data is %d but got %d", MaxDataSize, size)
			ty, out = generateErrorReport(err)
		}
	}

	return ty, out
}

func handleConn(c net.Conn) {
	defer recoverPanic()

	log.Printf("Client connected (%s)", c.RemoteAddr().Network())
	defer c.Close()

	header := make([]byte, HeaderLen)
	for {
		n, err := c.Read(header)
		if ReadErr(n, err, HeaderLen) {
			break
		}

		ty := header[0]
		// we only use last 3 bytes to store the length, so the first byte is
		// consider zero
		header[0] = 0
		length := binary.BigEndian.Uint32(header)

		log.Printf("receive rpc type: %d data length: %d", ty, length)

		buf := make([]byte, length)
		n, err = c.Read(buf)
		if ReadErr(n, err, int(length)) {
			break
		}

		ty, out := dispatchRPC(ty, buf, c)

		size := len(out)
		binary.BigEndian.PutUint32(header, uint32(size))
		header[0] = ty

		n, err = c.Write(header)
		if err != nil {
			WriteErr(n, err)
			break
		}

		n, err = c.Write(out)
		if err != nil {
			WriteErr(n, err)
			break
		}
	}
}
