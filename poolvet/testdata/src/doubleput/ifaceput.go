package doubleput

import "sync"

type replyEncoder interface{ Reset() }

var (
	jsonEncPool  sync.Pool
	protoEncPool sync.Pool
)

// The JSON branch has no return: the encoder goes into both pools
// (centrifugal/centrifuge e33dcc85).
func putReplyEncoder(json bool, e replyEncoder) {
	if json {
		jsonEncPool.Put(e)
	}
	protoEncPool.Put(e) // want `e is put into the pool twice \(first at line 16\)`
}

// Silent: one Put on each path.
func putReplyEncoder2(json bool, e replyEncoder) {
	if json {
		jsonEncPool.Put(e)
		return
	}
	protoEncPool.Put(e)
}
