package bytepool

// Internals exposed to the tests of package bytepool_test.

// BudgetIdle returns the idle bytes p's budget has reserved.
func (p *Pool) BudgetIdle() int64 { return p.state().budget.Idle() }

// BudgetFree returns the budget no P holds: never negative.
func (p *Pool) BudgetFree() int64 { return p.state().budget.Free() }

// BudgetMax returns the budget's bound after defaults are applied.
func (p *Pool) BudgetMax() int64 { return p.state().maxBytes }

// StartCap returns the capacity new Buffers of p start with.
func (p *Pool) StartCap() int { return p.state().startSize() }

const (
	SampleEvery           = sampleEvery
	SampleEveryCalibrated = sampleEveryCalibrated
	CalibrateEvery        = calibrateEvery
	MinStart              = minStart
)

// CeilClass and FloorClass are the fast paths' class lookups.
var (
	CeilClass  = ceilClass
	FloorClass = floorClass
)
