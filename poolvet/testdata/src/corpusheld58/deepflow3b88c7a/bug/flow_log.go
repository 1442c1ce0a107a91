// Source: https://github.com/deepflowio/deepflow/commit/3b88c7a8e61a113b032932e2f66d3df72f9855aa
//
//	"释放ProtoLogs到pool时需清空" (ProtoLogs must be cleared when released
//	to the pool)
//
// Bug: droplet-libs datatype/pb/flow_log.go: ReleasePbAppProtoLogsData put
// the *AppProtoLogsData (with its preallocated BaseInfo, Head, Http, Dns,
// Dubbo, Kafka, Mysql, Redis sub-messages) back into the LockFreePool
// without clearing it. The object is then reused as the target of a gogo
// protobuf Unmarshal, which does not write default (zero) values: "pb 解码时，
// 对默认值不会填充，若一个字段之前有值，后续变为0值了，则会保持非0值" - a field
// that had a value and is now zero keeps the old non-zero value.
// Fix: Reset every sub-message and the top-level message (keeping the
// preallocated sub-message pointers) before Put.
//
// Check: noreset (at pbAppProtoLogsDataPool.Put in ReleasePbAppProtoLogsData:
// the decoded log of the last user goes back into the pool uncleared)
package bug

import (
	"sync"
)

// ---- droplet-libs pool (trimmed, interface{} version of that time) ----

type LockFreePool struct {
	emptyPool *sync.Pool
	fullPool  *sync.Pool
}

func (p *LockFreePool) Get() interface{} {
	elemPool := p.fullPool.Get().(*[]interface{}) // avoid convT2Eslice
	pool := *elemPool
	e := pool[len(pool)-1]
	*elemPool = pool[:len(pool)-1]
	if len(pool) > 1 {
		p.fullPool.Put(elemPool)
	} else {
		p.emptyPool.Put(elemPool) // Empty, give it back to other CPUs
	}
	return e
}

func (p *LockFreePool) Put(x interface{}) {
	pool := p.emptyPool.Get().(*[]interface{}) // avoid convT2Eslice
	*pool = append(*pool, x)
	if len(*pool) < cap(*pool) {
		p.emptyPool.Put(pool)
	} else {
		p.fullPool.Put(pool) // Full, give it back to other CPUs
	}
}

func NewLockFreePool(alloc func() interface{}) LockFreePool {
	const poolSizePerCPU, initFullPoolSize = 256, 256
	return LockFreePool{
		emptyPool: &sync.Pool{New: func() interface{} {
			p := make([]interface{}, 0, poolSizePerCPU)
			return &p
		}},
		fullPool: &sync.Pool{New: func() interface{} {
			p := make([]interface{}, initFullPoolSize, poolSizePerCPU)
			for i := range p {
				p[i] = alloc()
			}
			return &p
		}},
	}
}

// ---- datatype/pb (gogo generated messages, trimmed) ----

type AppProtoHead struct {
	Proto   uint32
	MsgType uint32
	Status  uint32
	Code    uint32
	RRT     uint64
}

func (m *AppProtoHead) Reset() { *m = AppProtoHead{} }

type AppProtoLogsBaseInfo struct {
	StartTime uint64
	EndTime   uint64
	FlowId    uint64
	VtapId    uint32
	Head      *AppProtoHead
}

func (m *AppProtoLogsBaseInfo) Reset() { *m = AppProtoLogsBaseInfo{} }

type HTTPInfo struct {
	StreamID          uint32
	Method            string
	Path              string
	Host              string
	TraceID           string
	ReqContentLength  int64
	RespContentLength int64
}

func (m *HTTPInfo) Reset() { *m = HTTPInfo{} }

type DNSInfo struct {
	TransID   uint32
	QueryType uint32
	QueryName string
	Answers   string
}

func (m *DNSInfo) Reset() { *m = DNSInfo{} }

type DubboInfo struct {
	SerialID    uint32
	ServiceName string
}

func (m *DubboInfo) Reset() { *m = DubboInfo{} }

type KafkaInfo struct {
	CorrelationId uint32
	ApiKey        uint32
}

func (m *KafkaInfo) Reset() { *m = KafkaInfo{} }

type MysqlInfo struct {
	Command      uint32
	Context      string
	AffectedRows uint64
}

func (m *MysqlInfo) Reset() { *m = MysqlInfo{} }

type RedisInfo struct {
	Request  string
	Response string
	Error    string
}

func (m *RedisInfo) Reset() { *m = RedisInfo{} }

type AppProtoLogsData struct {
	BaseInfo *AppProtoLogsBaseInfo
	Http     *HTTPInfo
	Dns      *DNSInfo
	Dubbo    *DubboInfo
	Kafka    *KafkaInfo
	Mysql    *MysqlInfo
	Redis    *RedisInfo
}

func (m *AppProtoLogsData) Reset() { *m = AppProtoLogsData{} }

// Unmarshal stands in for the gogo generated decoder: like proto3 on the
// wire, only non-default fields are present, and they are written into
// the existing (preallocated) sub-messages.
func (m *AppProtoLogsData) Unmarshal(fields map[string]interface{}) error {
	if m.BaseInfo == nil {
		m.BaseInfo = &AppProtoLogsBaseInfo{}
	}
	if m.BaseInfo.Head == nil {
		m.BaseInfo.Head = &AppProtoHead{}
	}
	if m.Http == nil {
		m.Http = &HTTPInfo{}
	}
	for k, v := range fields {
		switch k {
		case "FlowId":
			m.BaseInfo.FlowId = v.(uint64)
		case "Head.Proto":
			m.BaseInfo.Head.Proto = v.(uint32)
		case "Head.Code":
			m.BaseInfo.Head.Code = v.(uint32)
		case "Http.Path":
			m.Http.Path = v.(string)
		case "Http.RespContentLength":
			m.Http.RespContentLength = v.(int64)
		}
	}
	return nil
}

// ---- datatype/pb/flow_log.go ----

var pbAppProtoLogsDataPool = NewLockFreePool(func() interface{} {
	return &AppProtoLogsData{
		BaseInfo: &AppProtoLogsBaseInfo{
			Head: &AppProtoHead{},
		},
		Http:  &HTTPInfo{},
		Dns:   &DNSInfo{},
		Dubbo: &DubboInfo{},
		Kafka: &KafkaInfo{},
		Mysql: &MysqlInfo{},
		Redis: &RedisInfo{},
	}
})

func AcquirePbAppProtoLogsData() *AppProtoLogsData {
	d := pbAppProtoLogsDataPool.Get().(*AppProtoLogsData)
	return d
}

func ReleasePbAppProtoLogsData(d *AppProtoLogsData) {
	pbAppProtoLogsDataPool.Put(d) // want `noreset`
}

func (d *AppProtoLogsData) Release() {
	ReleasePbAppProtoLogsData(d)
}

func (d *AppProtoLogsData) IsValid() bool {
	if d == nil ||
		d.BaseInfo == nil ||
		d.BaseInfo.Head == nil {
		return false
	}
	return true
}

// ---- caller (stream decoder, trimmed) ----

func DecodeProtoLog(fields map[string]interface{}) (*AppProtoLogsData, error) {
	d := AcquirePbAppProtoLogsData()
	if err := d.Unmarshal(fields); err != nil || !d.IsValid() {
		d.Release()
		return nil, err
	}
	return d, nil
}
