// Source: https://github.com/prettyirrelevant/gistrunner/pull/7
// ("Fix: prevent buffer pool corruption in CreateTarArchiveForSourceCode").
//
// Bug: api/helpers/files.go built the tar archive for the code runner in a
// *bytes.Buffer taken from bufPool, put it back with "defer bufPool.Put(buf)"
// and returned bytes.NewReader(buf.Bytes()). The returned io.Reader still
// points at the pooled buffer's memory after the deferred Put, so concurrent
// requests reused the same buffer and one user's code was overwritten with
// another's (reproduced with go test -race in the PR).
// Fix: remove the sync.Pool and allocate a fresh buffer per request.
//
// Check: useafterput (the return hands out bytes.NewReader(buf.Bytes()),
// which aliases the pooled buffer, past the deferred bufPool.Put)
package bug

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"sync"
)

var bufPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

func writeCodeToTarWriter(tw *tar.Writer, code, extension string) error {
	header := &tar.Header{
		Name: "code" + extension,
		Mode: 0640,
		Size: int64(len(code)),
	}
	if err := tw.WriteHeader(header); err != nil {
		return err
	}

	_, err := tw.Write([]byte(code))
	return err
}

func CreateTarArchiveForSourceCode(code, extension string) (io.Reader, error) {
	buf, ok := bufPool.Get().(*bytes.Buffer)
	if !ok {
		return nil, fmt.Errorf("error reflecting buffer pool to buffer")
	}

	buf.Reset()
	defer bufPool.Put(buf)

	tarWriter := tar.NewWriter(buf)
	defer tarWriter.Close()

	if err := writeCodeToTarWriter(tarWriter, code, extension); err != nil {
		return nil, err
	}

	if err := tarWriter.Close(); err != nil {
		return nil, err
	}

	return bytes.NewReader(buf.Bytes()), nil // want `useafterput`
}

// ---- api/services/coderunner.go (caller, trimmed) ----

type containerClient interface {
	CopyToContainer(containerID, dstPath string, content io.Reader) error
}

func copyCode(cli containerClient, containerID, code, ext string) error {
	tarReader, err := CreateTarArchiveForSourceCode(code, ext)
	if err != nil {
		return err
	}
	return cli.CopyToContainer(containerID, "/tmp", tarReader)
}
