// Package bug reproduces the shape of moby/moby#39859
// (https://github.com/moby/moby/issues/39859): DecompressStream fed a pooled
// *bufio.Reader to an external unpigz command as its stdin. Closing the
// returned stream cancelled the command and put the reader back into the
// pool at once, but the command (and exec's stdin copier, waited for only by
// a background cmd.Wait goroutine nobody waited on) could still be reading
// from it; the next user of the pooled reader raced with it and panicked.
//
// Check: useafterput (hand-off: the reader is given to a command run in the
// background, then put back without waiting for it; reported at the Put in
// the Close closure, where the docs place hand-off reports).
package bug

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"sync"
)

var BufioReader32KPool = sync.Pool{
	New: func() any { return bufio.NewReaderSize(nil, 32*1024) },
}

type readCloserWrapper struct {
	io.Reader
	closer func() error
}

func (r *readCloserWrapper) Close() error { return r.closer() }

// cmdStream runs cmd with input as its stdin and returns its stdout. The
// command is waited for in the background.
func cmdStream(cmd *exec.Cmd, input io.Reader) (io.ReadCloser, error) {
	cmd.Stdin = input
	pipeR, pipeW := io.Pipe()
	cmd.Stdout = pipeW
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		if err := cmd.Wait(); err != nil {
			pipeW.CloseWithError(err)
		} else {
			pipeW.Close()
		}
	}()
	return pipeR, nil
}

func gzDecompress(ctx context.Context, buf io.Reader) (io.ReadCloser, error) {
	return cmdStream(exec.CommandContext(ctx, "unpigz", "-d", "-c"), buf)
}

// DecompressStream decompresses archive through an external unpigz.
func DecompressStream(archive io.Reader) (io.ReadCloser, error) {
	buf := BufioReader32KPool.Get().(*bufio.Reader)
	buf.Reset(archive)

	ctx, cancel := context.WithCancel(context.Background())
	gzReader, err := gzDecompress(ctx, buf)
	if err != nil {
		cancel()
		buf.Reset(nil)
		BufioReader32KPool.Put(buf)
		return nil, err
	}
	return &readCloserWrapper{Reader: gzReader, closer: func() error {
		cancel()
		buf.Reset(nil)
		BufioReader32KPool.Put(buf) // want `useafterput`
		return gzReader.Close()
	}}, nil
}
