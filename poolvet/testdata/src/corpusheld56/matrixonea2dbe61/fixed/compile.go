package fixed

import (
	"errors"
	"sync"
)

// ---- pkg/vm/process ----

type AnalyzeInfo struct {
	NodeId         int32
	InputRows      int64
	S3IOInputCount int64
	mu             *sync.Mutex
}

func (a AnalyzeInfo) TypeName() string {
	return "compile.anaylzeinfo"
}

func newAnalyzeInfo() *AnalyzeInfo {
	a := &AnalyzeInfo{}
	a.mu = &sync.Mutex{}
	return a
}

func resetAnalyzeInfo(a *AnalyzeInfo) {
	a.NodeId = 0
	a.InputRows = 0
	a.S3IOInputCount = 0
}

type BaseProcess struct {
	AnalInfos []*AnalyzeInfo
}

type Process struct {
	Base *BaseProcess
}

// ---- pkg/sql/compile ----

type anaylze struct {
	curNodeIdx int
	analInfos  []*AnalyzeInfo
}

func (a anaylze) TypeName() string {
	return "compile.anaylze"
}

func init() {
	CreatePool[AnalyzeInfo](
		newAnalyzeInfo,
		resetAnalyzeInfo,
		DefaultOptions[AnalyzeInfo]().WithEnableChecker(),
	)
	CreatePool[anaylze](
		func() *anaylze { return &anaylze{} },
		func(a *anaylze) { *a = anaylze{} },
		DefaultOptions[anaylze]().WithEnableChecker(),
	)
}

func newAnaylze() *anaylze {
	return Alloc[anaylze](nil)
}

func (a *anaylze) release() {
	// there are 3 situations to release analyzeInfo
	// 1 is free analyzeInfo of Local CN when release analyze
	// 2 is free analyzeInfo of remote CN before transfer back
	// 3 is free analyzeInfo of remote CN when errors happen before transfer back
	// this is situation 1
	for i := range a.analInfos {
		Free[AnalyzeInfo](a.analInfos[i], nil)
	}
	Free[anaylze](a, nil)
}

type Compile struct {
	proc *Process
	anal *anaylze
}

func (c *Compile) clear() {
	if c.anal != nil {
		c.anal.release()
	}
	c.anal = nil
}

func (c *Compile) Release() {}

type messageReceiverOnServer struct {
	analysisNodeList  []int32
	finalAnalysisInfo []*AnalyzeInfo
	run               func(c *Compile) error
}

func (receiver *messageReceiverOnServer) newCompile() (*Compile, error) {
	proc := &Process{Base: &BaseProcess{}}
	proc.Base.AnalInfos = make([]*AnalyzeInfo, len(receiver.analysisNodeList))
	for i := range proc.Base.AnalInfos {
		proc.Base.AnalInfos[i] = Alloc[AnalyzeInfo](nil)
		proc.Base.AnalInfos[i].NodeId = receiver.analysisNodeList[i]
	}
	c := &Compile{proc: proc}
	c.anal = newAnaylze()
	c.anal.analInfos = proc.Base.AnalInfos
	return c, nil
}

var errNoRunner = errors.New("no pipeline runner")

func handlePipelineMessage(receiver *messageReceiverOnServer) error {
	runCompile, errBuildCompile := receiver.newCompile()
	if errBuildCompile != nil {
		return errBuildCompile
	}
	defer func() {
		runCompile.clear()
		runCompile.Release()
	}()

	var err error
	if receiver.run == nil {
		err = errNoRunner
	} else {
		err = receiver.run(runCompile)
	}
	if err == nil {
		runCompile.proc.Base.AnalInfos[runCompile.anal.curNodeIdx].S3IOInputCount++
		receiver.finalAnalysisInfo = runCompile.proc.Base.AnalInfos
	} else {
		// there are 3 situations to release analyzeInfo
		// 1 is free analyzeInfo of Local CN when release analyze
		// 2 is free analyzeInfo of remote CN before transfer back
		// 3 is free analyzeInfo of remote CN when errors happen before transfer back
		// this is situation 3
		for i := range runCompile.proc.Base.AnalInfos {
			Free[AnalyzeInfo](runCompile.proc.Base.AnalInfos[i], nil)
		}
	}
	runCompile.proc.Base.AnalInfos = nil
	runCompile.anal.analInfos = nil
	return err
}
