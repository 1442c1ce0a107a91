// Source: https://github.com/parca-dev/parca-agent/pull/641
// (commit c3308e2cf2a22b0af0b4bb0864f2dfd3dc2f9a11, "profiler: Fix race
// condition in the profile's buffer").
//
// Bug: CPUProfiler.writeProfile took a *bytes.Buffer from profileBufferPool,
// serialized the pprof profile into it and passed buf.Bytes() as RawProfile
// of a WriteRawRequest to p.writeClient. The write client is the Batcher,
// which does not send anything immediately: it appends the request's
// samples (and so the slice aliasing the pooled buffer) to b.series and
// ships them later from its Run loop. The deferred func reset the buffer and
// put it back into the pool as soon as writeProfile returned, so the next
// writeProfile (for the next pid) reused the same memory while the batcher
// still held it: the profiles that were sent were corrupted.
//
// Fix: drop the pool and allocate a fresh bytes.Buffer per profile.
//
// Check: useafterput (the deferred Put returns buf to the pool while
// buf.Bytes() is handed to the batching write client, which keeps it in
// b.series past the call; reported at the WriteRaw call)
package bug

import (
	"bytes"
	"context"
	"io"
	"sync"
)

type Label struct {
	Name  string
	Value string
}

type LabelSet struct {
	Labels []*Label
}

type RawSample struct {
	RawProfile []byte
}

type RawProfileSeries struct {
	Labels  *LabelSet
	Samples []*RawSample
}

type WriteRawRequest struct {
	Normalized bool
	Series     []*RawProfileSeries
}

type WriteRawResponse struct{}

// ProfileStoreServiceClient is the generated gRPC client interface.
type ProfileStoreServiceClient interface {
	WriteRaw(ctx context.Context, in *WriteRawRequest) (*WriteRawResponse, error)
}

// Batcher is the batch write client (pkg/agent/write_client.go): WriteRaw
// only queues the series; they are sent from Run on every write interval.
type Batcher struct {
	writeClient ProfileStoreServiceClient

	mtx    *sync.RWMutex
	series []*RawProfileSeries
}

func NewBatchWriteClient(wc ProfileStoreServiceClient) *Batcher {
	return &Batcher{
		writeClient: wc,
		series:      []*RawProfileSeries{},
		mtx:         &sync.RWMutex{},
	}
}

func (b *Batcher) batchLoop(ctx context.Context) error {
	b.mtx.Lock()
	batch := b.series
	b.series = []*RawProfileSeries{}
	b.mtx.Unlock()

	_, err := b.writeClient.WriteRaw(ctx, &WriteRawRequest{
		Series:     batch,
		Normalized: true,
	})
	return err
}

func (b *Batcher) WriteRaw(ctx context.Context, r *WriteRawRequest) (*WriteRawResponse, error) {
	b.mtx.Lock()
	defer b.mtx.Unlock()

	for _, profileSeries := range r.Series {
		b.series = append(b.series, &RawProfileSeries{
			Labels:  profileSeries.Labels,
			Samples: profileSeries.Samples,
		})
	}

	return &WriteRawResponse{}, nil
}

// Profile stands in for github.com/google/pprof/profile.Profile.
type Profile struct {
	data []byte
}

func (p *Profile) Write(w io.Writer) error {
	_, err := w.Write(p.data)
	return err
}

type CPUProfiler struct {
	writeClient ProfileStoreServiceClient

	profileBufferPool sync.Pool

	labels map[string]string
}

func NewCPUProfiler(writeClient ProfileStoreServiceClient) *CPUProfiler {
	return &CPUProfiler{
		writeClient: writeClient,
		profileBufferPool: sync.Pool{
			New: func() interface{} {
				return bytes.NewBuffer(nil)
			},
		},
		labels: map[string]string{},
	}
}

func (p *CPUProfiler) Labels() map[string]string { return p.labels }

// writeProfile sends the profile using the designated write client..
func (p *CPUProfiler) writeProfile(ctx context.Context, prof *Profile, extraLabels []*Label) error {
	//nolint:forcetypeassert
	buf := p.profileBufferPool.Get().(*bytes.Buffer)
	defer func() {
		buf.Reset()
		p.profileBufferPool.Put(buf)
	}()
	if err := prof.Write(buf); err != nil {
		return err
	}

	labelOldFormat := make([]*Label, 0, len(p.Labels()))
	for key, value := range p.Labels() {
		labelOldFormat = append(labelOldFormat, &Label{
			Name:  key,
			Value: value,
		})
	}
	labelOldFormat = append(labelOldFormat, extraLabels...)

	// NOTICE: This is a batch client, so nothing will be sent immediately.
	// Make sure that the batch write client has the correct behaviour if you change any parameters.
	_, err := p.writeClient.WriteRaw(ctx, &WriteRawRequest{ // want `useafterput`
		Normalized: true,
		Series: []*RawProfileSeries{{
			Labels: &LabelSet{Labels: labelOldFormat},
			Samples: []*RawSample{{
				RawProfile: buf.Bytes(),
			}},
		}},
	})

	return err
}

// profileAll writes one profile per pid, as the profiler loop does.
func (p *CPUProfiler) profileAll(ctx context.Context, profiles []*Profile) error {
	for _, prof := range profiles {
		if err := p.writeProfile(ctx, prof, nil); err != nil {
			return err
		}
	}
	return nil
}
