// Source: https://github.com/bilibili/discovery/commit/97c9d8ab2e5d9177d2dc92fbf285fcfc50e448a6
// ("fix pool chan reuse bug").
//
// Bug: the registry kept the long-poll channels in a sync.Pool. Polls took a
// channel from the pool and, when nothing had changed yet, stored it in
// r.conns for every requested appid (and under the poller's hostname, so a
// second poller from the same host overwrote the first one's entry).
// broadcast later sends into the stored channels. The HTTP handlers put the
// channel back into the pool although it was still referenced: poll() called
// PutChan after the first broadcast although the channel was still
// registered in r.conns for the other appids of the request ("broadcast will
// delete all connections of appid" was not true), and DelConns put back the
// channel found under the hostname, which could be the channel another
// poller of the same host was still waiting on. A later Polls got that
// channel from the pool while a broadcast could still send into it, so
// pollers received another app's instances or blocked on a full channel.
// Fix: the pool was removed. Polls makes a fresh channel (shared per host,
// with a reference count in conn), the handlers call DelConns instead of
// PutChan after a broadcast, and DelConns only decrements/deletes.
//
// Check: useafterput (at the two PutChan calls: the channel goes back to the
// pool while r.conns / another poller still holds it and broadcast may send
// into it)
package fixed

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

const _pollWaitSecond = 30 * time.Second

var (
	errNotModified = errors.New("-304")
	errNothingFind = errors.New("-404")
)

// InstanceInfo the info get by consumer.
type InstanceInfo struct {
	Instances       []string
	LatestTimestamp int64
}

// ArgPolls define poll param.
type ArgPolls struct {
	Zone            string
	Env             string
	AppID           []string
	Hostname        string
	LatestTimestamp []int64
}

// Registry handles replication of all operations to peer Discovery nodes.
type Registry struct {
	apps  map[string]*InstanceInfo
	aLock sync.RWMutex

	conns map[string]map[string]*conn // region.zone.env.appid-> host
	cLock sync.RWMutex
}

// conn the poll chan contains consumer.
type conn struct {
	ch         chan map[string]*InstanceInfo
	arg        *ArgPolls
	latestTime int64
	count      int
}

// newConn new consumer chan.
func newConn(ch chan map[string]*InstanceInfo, latestTime int64, arg *ArgPolls) *conn {
	return &conn{ch: ch, latestTime: latestTime, arg: arg, count: 1}
}

// NewRegistry new register.
func NewRegistry() (r *Registry) {
	r = &Registry{
		apps:  make(map[string]*InstanceInfo),
		conns: make(map[string]map[string]*conn),
	}
	return
}

// Fetch returns the instances of appid if they changed after latestTime.
func (r *Registry) Fetch(zone, env, appid string, latestTime int64) (*InstanceInfo, error) {
	r.aLock.RLock()
	defer r.aLock.RUnlock()
	in, ok := r.apps[pollKey(env, appid)]
	if !ok {
		return nil, errNothingFind
	}
	if in.LatestTimestamp <= latestTime {
		return nil, errNotModified
	}
	return in, nil
}

// Polls hangs request and then write instances when that has changes, or return NotModified.
func (r *Registry) Polls(arg *ArgPolls) (ch chan map[string]*InstanceInfo, new bool, err error) {
	var (
		ins = make(map[string]*InstanceInfo, len(arg.AppID))
		in  *InstanceInfo
	)
	if len(arg.AppID) != len(arg.LatestTimestamp) {
		arg.LatestTimestamp = make([]int64, len(arg.AppID))
	}
	for i := range arg.AppID {
		in, err = r.Fetch(arg.Zone, arg.Env, arg.AppID[i], arg.LatestTimestamp[i])
		if err == errNothingFind {
			return
		}
		if err == nil {
			ins[arg.AppID[i]] = in
			new = true
		}
	}
	if new {
		ch = make(chan map[string]*InstanceInfo, 1)
		ch <- ins
		return
	}
	r.cLock.Lock()
	for i := range arg.AppID {
		k := pollKey(arg.Env, arg.AppID[i])
		if _, ok := r.conns[k]; !ok {
			r.conns[k] = make(map[string]*conn, 1)
		}
		connection, ok := r.conns[k][arg.Hostname]
		if !ok {
			if ch == nil {
				ch = make(chan map[string]*InstanceInfo, 5) // NOTE: there maybe have more than one connection on the same hostname!!!
			}
			connection = newConn(ch, arg.LatestTimestamp[i], arg)
		} else {
			connection.count++ // NOTE: there maybe have more than one connection on the same hostname!!!
			if ch == nil {
				ch = connection.ch
			}
		}
		r.conns[k][arg.Hostname] = connection
	}
	r.cLock.Unlock()
	return
}

// broadcast on poll by chan.
func (r *Registry) broadcast(env, appid string) {
	key := pollKey(env, appid)
	r.cLock.Lock()
	conns, ok := r.conns[key]
	if !ok {
		r.cLock.Unlock()
		return
	}
	delete(r.conns, key)
	r.cLock.Unlock()
	for _, conn := range conns {
		ii, _ := r.Fetch(conn.arg.Zone, env, appid, 0)
		select {
		case conn.ch <- map[string]*InstanceInfo{appid: ii}: // NOTE: if chan is full, means no poller.
		default:
		}
	}
}

func pollKey(env, appid string) string {
	return fmt.Sprintf("%s.%s", env, appid)
}

// DelConns delete conn of host in appid
func (r *Registry) DelConns(arg *ArgPolls) {
	r.cLock.Lock()
	for i := range arg.AppID {
		k := pollKey(arg.Env, arg.AppID[i])
		conns, ok := r.conns[k]
		if !ok {
			continue
		}
		if connection, ok := conns[arg.Hostname]; ok {
			if connection.count > 1 {
				connection.count--
			} else {
				delete(conns, arg.Hostname)
			}
		}
	}
	r.cLock.Unlock()
}

// ---- discovery/register.go ----

// Discovery discovery.
type Discovery struct {
	registry *Registry
}

// Polls hangs request and then write instances when that has changes, or return NotModified.
func (d *Discovery) Polls(arg *ArgPolls) (ch chan map[string]*InstanceInfo, new bool, err error) {
	return d.registry.Polls(arg)
}

// DelConns delete conn of host in appid
func (d *Discovery) DelConns(arg *ArgPolls) {
	d.registry.DelConns(arg)
}

// ---- http/discovery.go (gin context trimmed to a result func) ----

type resp struct {
	Data interface{}
}

func poll(dis *Discovery, arg *ArgPolls, closed <-chan bool, result func(interface{}, error)) {
	ch, new, err := dis.Polls(arg)
	if err != nil && err != errNotModified {
		result(nil, err)
		return
	}
	// wait for instance change
	select {
	case e := <-ch:
		result(resp{Data: e[arg.AppID[0]]}, nil)
		if !new {
			dis.DelConns(arg) // broadcast will delete all connections of appid
		}
		return
	case <-time.After(_pollWaitSecond):
	case <-closed:
	}
	result(nil, errNotModified)
	dis.DelConns(arg)
}

func polls(dis *Discovery, arg *ArgPolls, closed <-chan bool, result func(interface{}, error)) {
	if len(arg.AppID) != len(arg.LatestTimestamp) {
		result(nil, errors.New("-400"))
		return
	}
	ch, new, err := dis.Polls(arg)
	if err != nil && err != errNotModified {
		result(nil, err)
		return
	}
	// wait for instance change
	select {
	case e := <-ch:
		result(e, nil)
		if !new {
			dis.DelConns(arg) // broadcast will delete all connections of appid
		}
		return
	case <-time.After(_pollWaitSecond):
	case <-closed:
	}
	result(nil, errNotModified)
	dis.DelConns(arg)
}
