// Package bug reproduces the shape of vdaas/vald#3561 (https://github.com/vdaas/vald/pull/3561,
// commit db364c3e4 "fix(operator/benchmark): ... clear pooled map on release"): the benchmark
// operator groups the Jobs of every reconcile into a map taken from a sync.Pool. The release
// helper only truncated each grouped slice before putting the map back, so the app-name keys of
// earlier reconciles stayed in the pooled map (and the backing arrays kept the old Jobs alive).
// The next reconcile got a map that was never empty, so the "no job found" branch never ran and
// stale groups were walked again.
// Fixed: the release helper clears the whole map (keys and values) before the Put.
package bug

import (
	"strings"
	"sync"
)

type Job struct {
	Name      string
	Namespace string
	Labels    map[string]string
	Done      bool
}

type JobList struct {
	Items []Job
}

var jobsByAppNamePool = sync.Pool{
	New: func() any {
		return make(map[string][]Job)
	},
}

// jobsByAppName groups the jobs by their "app" label. The returned map is
// pooled and must be handed back with releaseJobsByAppName.
func jobsByAppName(list *JobList) map[string][]Job {
	jobs, ok := jobsByAppNamePool.Get().(map[string][]Job)
	if !ok {
		jobs = make(map[string][]Job)
	}
	for idx := range list.Items {
		job := list.Items[idx]
		name, ok := job.Labels["app"]
		if !ok {
			parts := strings.Split(job.Name, "-")
			name = strings.Join(parts[:len(parts)-1], "-")
		}
		if _, ok := jobs[name]; !ok {
			jobs[name] = make([]Job, 0, len(list.Items))
		}
		jobs[name] = append(jobs[name], job)
	}
	return jobs
}

// releaseJobsByAppName empties the map and returns it to the pool.
func releaseJobsByAppName(jobs map[string][]Job) {
	clear(jobs)
	jobsByAppNamePool.Put(jobs)
}

type operator struct {
	namespace string
	running   map[string]string
}

func (o *operator) jobReconcile(jobList map[string][]Job) {
	if len(jobList) == 0 {
		o.running = map[string]string{}
		return
	}
	next := map[string]string{}
	for _, jobs := range jobList {
		for idx := range jobs {
			job := jobs[idx]
			if job.Namespace != o.namespace || job.Done {
				continue
			}
			next[job.Name] = job.Namespace
		}
	}
	o.running = next
}

func (o *operator) onReconcile(list *JobList) {
	jobs := jobsByAppName(list)
	o.jobReconcile(jobs)
	releaseJobsByAppName(jobs)
}
