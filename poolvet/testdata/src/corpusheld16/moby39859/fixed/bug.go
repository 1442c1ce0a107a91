// Package fixed is the fixed twin of moby/moby#39859
// (https://github.com/moby/moby/issues/39859): the background goroutine
// signals when cmd.Wait has returned (so the command and exec's stdin copier
// are done with the reader), and Close waits for that signal before the
// reader goes back to the pool.
package fixed

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

// cmdStream runs cmd with input as its stdin and returns its stdout, and a
// channel closed once the command has been waited for.
func cmdStream(cmd *exec.Cmd, input io.Reader) (io.ReadCloser, <-chan struct{}, error) {
	cmd.Stdin = input
	pipeR, pipeW := io.Pipe()
	cmd.Stdout = pipeW
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		if err := cmd.Wait(); err != nil {
			pipeW.CloseWithError(err)
		} else {
			pipeW.Close()
		}
		close(done)
	}()
	return pipeR, done, nil
}

func gzDecompress(ctx context.Context, buf io.Reader) (io.ReadCloser, <-chan struct{}, error) {
	return cmdStream(exec.CommandContext(ctx, "unpigz", "-d", "-c"), buf)
}

// DecompressStream decompresses archive through an external unpigz.
func DecompressStream(archive io.Reader) (io.ReadCloser, error) {
	buf := BufioReader32KPool.Get().(*bufio.Reader)
	buf.Reset(archive)

	ctx, cancel := context.WithCancel(context.Background())
	gzReader, done, err := gzDecompress(ctx, buf)
	if err != nil {
		cancel()
		buf.Reset(nil)
		BufioReader32KPool.Put(buf)
		return nil, err
	}
	return &readCloserWrapper{Reader: gzReader, closer: func() error {
		cancel()
		err := gzReader.Close()
		<-done
		buf.Reset(nil)
		BufioReader32KPool.Put(buf)
		return err
	}}, nil
}
