package fixed

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
)

type Message struct {
	ServicePath   string
	ServiceMethod string
	Payload       []byte
	oneway        bool
}

func (m *Message) IsOneway() bool { return m.oneway }

func (m *Message) Clone() *Message {
	return &Message{ServicePath: m.ServicePath, ServiceMethod: m.ServiceMethod}
}

type JSONCodec struct{}

func (c JSONCodec) Encode(i interface{}) ([]byte, error) { return json.Marshal(i) }

func (c JSONCodec) Decode(data []byte, i interface{}) error { return json.Unmarshal(data, i) }

type methodType struct {
	method    reflect.Method
	ArgType   reflect.Type
	ReplyType reflect.Type
}

type service struct {
	rcvr   reflect.Value
	method map[string]*methodType
}

func (s *service) call(ctx context.Context, mtype *methodType, argv, replyv reflect.Value) error {
	function := mtype.method.Func
	returnValues := function.Call([]reflect.Value{s.rcvr, reflect.ValueOf(ctx), argv, replyv})
	if errInter := returnValues[0].Interface(); errInter != nil {
		return errInter.(error)
	}
	return nil
}

type Server struct {
	serviceMap map[string]*service
}

func (s *Server) handleError(res *Message, err error) (*Message, error) {
	return res, err
}

func (s *Server) handleRequest(ctx context.Context, req *Message) (res *Message, err error) {
	res = req.Clone()

	service := s.serviceMap[req.ServicePath]
	if service == nil {
		return s.handleError(res, errors.New("rpcx: can't find service "+req.ServicePath))
	}
	mtype := service.method[req.ServiceMethod]
	if mtype == nil {
		return s.handleError(res, errors.New("rpcx: can't find method "+req.ServiceMethod))
	}

	// get a argv object from object pool
	argv := reflectTypePools.Get(mtype.ArgType)

	codec := JSONCodec{}
	err = codec.Decode(req.Payload, argv)
	if err != nil {
		return s.handleError(res, err)
	}

	// and get a reply object from object pool
	replyv := reflectTypePools.Get(mtype.ReplyType)

	if mtype.ArgType.Kind() != reflect.Ptr {
		err = service.call(ctx, mtype, reflect.ValueOf(argv).Elem(), reflect.ValueOf(replyv))
	} else {
		err = service.call(ctx, mtype, reflect.ValueOf(argv), reflect.ValueOf(replyv))
	}

	// return argc to object pool
	reflectTypePools.Put(mtype.ArgType, argv)

	if err != nil {
		reflectTypePools.Put(mtype.ReplyType, replyv)
		return s.handleError(res, err)
	}

	if !req.IsOneway() {
		data, err := codec.Encode(replyv)
		// return reply to object pool
		reflectTypePools.Put(mtype.ReplyType, replyv)
		if err != nil {
			return s.handleError(res, err)
		}
		res.Payload = data
	}

	return res, nil
}
