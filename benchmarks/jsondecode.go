package benchmarks

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// jsondecode decodes a JSON document (about 1 KB, four shapes in turn)
// into a reused struct. encoding/json reuses the capacity of slices and
// the map it finds in the target, but not the strings, which it always
// allocates; so pooling saves the slices, the map and the struct itself.
var _ = register(&Workload{
	Name:      "jsondecode",
	Doc:       "decode a JSON document into a reused struct",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: kit[*Event]{
		new:     func() *Event { return new(Event) },
		reset:   (*Event).Reset,
		maxIdle: 64,
	}.strategies(jsondecodeOp),
})

// Event is the decode target of the jsondecode workload, shaped like a
// GitHub push event.
type Event struct {
	ID      int64             `json:"id"`
	Type    string            `json:"type"`
	Public  bool              `json:"public"`
	Actor   Actor             `json:"actor"`
	Repo    Repo              `json:"repo"`
	Labels  []string          `json:"labels"`
	Commits []Commit          `json:"commits"`
	Meta    map[string]string `json:"meta"`
}

// Actor is who caused an Event.
type Actor struct {
	ID    int64  `json:"id"`
	Login string `json:"login"`
}

// Repo is where an Event happened.
type Repo struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Commit is one commit of a push Event.
type Commit struct {
	SHA      string `json:"sha"`
	Message  string `json:"message"`
	Distinct bool   `json:"distinct"`
	Added    int    `json:"added,omitempty"`
}

// Reset makes e like new while keeping the capacity of its slices and
// its map. encoding/json decodes array elements into the existing
// elements of a slice, so those must be zeroed, or a field absent from
// the next document keeps the previous document's value; likewise the
// map keeps old keys unless cleared.
func (e *Event) Reset() {
	clear(e.Labels)
	clear(e.Commits)
	clear(e.Meta)
	*e = Event{Labels: e.Labels[:0], Commits: e.Commits[:0], Meta: e.Meta}
}

// jsonDocs are the documents decoded in turn; they differ in which
// optional fields and how many elements they carry, so a Reset that
// forgets something shows up as a different result.
var jsonDocs = func() [][]byte {
	docs := make([][]byte, 4)
	for d := range docs {
		var commits []string
		for c := range 3 + 2*d {
			added := ""
			if (c+d)%2 == 0 {
				added = fmt.Sprintf(`,"added":%d`, c*7+d)
			}
			commits = append(commits, fmt.Sprintf(`{"sha":"%040x","message":"fix: handle case %d of shard %d without dropping buffered writes","distinct":%v%s}`,
				(d+1)*1000003+c, c, d, c%3 != 0, added))
		}
		labels := []string{`"bug"`, `"perf"`, `"pool"`, `"gc"`}[:d+1]
		meta := ""
		if d != 2 {
			meta = fmt.Sprintf(`,"meta":{"ref":"refs/heads/main","shard":"%d","attempt":"%d"}`, d, d*3)
		}
		docs[d] = fmt.Appendf(nil, `{"id":%d,"type":"PushEvent","public":%v,"actor":{"id":%d,"login":"user%d"},"repo":{"id":%d,"name":"poolkit/pool"},"labels":[%s],"commits":[%s]%s}`,
			31415926+d, d%2 == 0, 1000+d, d, 77, strings.Join(labels, ","), strings.Join(commits, ","), meta)
	}
	return docs
}()

func jsondecodeOp(src source[*Event], out io.Writer) (func(int), func()) {
	return func(i int) {
		e := src.Get()
		if err := json.Unmarshal(jsonDocs[i%len(jsonDocs)], e); err != nil {
			panic("jsondecode: " + err.Error())
		}
		if out != nil {
			fmt.Fprintf(out, "%+v\n", *e)
		}
		src.Put(e)
	}, nil
}
