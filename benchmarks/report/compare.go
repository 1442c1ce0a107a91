package report

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/aclements/go-moremath/stats"
	"github.com/poolkit/pool/benchmarks"
)

// Margins of the verdicts. A strategy is better than another on a unit
// when the confidence interval of their ratio excludes 1 and the estimate
// is at least GateMargin (pooled against alloc) or SwitchMargin (another
// strategy against the project's pool). Giving up bounds and stats needs
// a gain larger than what the same binaries' ratios drift between states
// of one machine: tinystruct's sync.Pool over pool.Pool went from 1.06x
// to 1.14x between an idle and a busy hour of the same VM, and
// replicate's sync.Pool of *[]string over pool.Pool sits at about 1.13x,
// so a 10% margin changed their verdicts from run to run. For the hit
// ratio, a difference, the margins are 0.05 and 0.20.
const (
	GateMargin   = 1.05
	SwitchMargin = 1.20
)

// SwitchConfidence is the level of the intervals that decide whether
// another strategy beats the project's pool. Every challenger is compared
// after every round, so at 95% one of them would now and then come out
// ahead by chance and the recommendation would change from run to run;
// 99% keeps such false switches rare. Pooling against alloc uses
// Confidence.
const SwitchConfidence = 0.99

// Resolution is the half-width, as a factor, below which a confidence
// interval that contains 1 says "the same": the adaptive sampling of
// poolbench stops measuring a pair once their interval excludes 1 or is
// narrower than ±5%.
const Resolution = 1.05

// An Outcome is what a Comparison concludes.
type Outcome int

const (
	Unknown Outcome = iota // the interval contains 1 and is wider than ±5%: more runs needed
	Better                 // A is better than B by at least the margin
	Worse                  // A is worse than B by at least the margin
	Same                   // within the margin, or the interval is narrower than ±5% and contains 1
)

func (o Outcome) String() string {
	return [...]string{"unknown", "better", "worse", "same"}[o]
}

// MarshalText makes an Outcome a word in JSON.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, s := range [...]string{"unknown", "better", "worse", "same"} {
		if s == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("report: bad outcome %q", b)
}

// A Comparison says how much better strategy A is than strategy B on one
// unit, from their runs.
//
// For every unit but the hit ratio it is a ratio, B's figure over A's
// (lower is better, so Factor > 1 means A is better, as "1.6x faster"):
// the Hodges–Lehmann estimate, the median of log(b_j) - log(a_i) over all
// pairs of runs, and its distribution-free confidence interval, the order
// statistics of those pairwise differences picked by the exact
// Mann–Whitney U distribution (so the interval excludes 1 exactly when
// the Mann–Whitney test rejects "no shift" at 5%). Figures below a unit's
// floor (RetainedFloor for retained heap, 0.01 allocs/op, 1 B/op) are
// compared as the floor. For the hit ratio (higher is better, and often 0)
// Factor, Lo and Hi are the same estimate on differences, a_i - b_j.
type Comparison struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	Unit       string  `json:"unit"`
	Diff       bool    `json:"diff"`   // Factor, Lo, Hi are differences, not ratios
	Factor     float64 `json:"factor"` // estimate; > 1 (> 0 for Diff) means A is better
	Lo         float64 `json:"lo"`     // confidence interval of Factor; ±Inf without one
	Hi         float64 `json:"hi"`
	Margin     float64 `json:"margin"`     // the margin Outcome used
	Confidence float64 `json:"confidence"` // the level of the interval
	Outcome    Outcome `json:"outcome"`
}

// MarshalJSON writes an interval that does not exist (too few runs) as
// null bounds: JSON has no infinities.
func (c Comparison) MarshalJSON() ([]byte, error) {
	type plain Comparison
	v := struct {
		plain
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}{plain: plain(c)}
	if !math.IsInf(c.Lo, 0) && !math.IsInf(c.Hi, 0) {
		v.Lo, v.Hi = &c.Lo, &c.Hi
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Comparison) UnmarshalJSON(b []byte) error {
	type plain Comparison
	var v struct {
		plain
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Comparison(v.plain)
	c.Lo, c.Hi = math.Inf(-1), math.Inf(1)
	if v.Lo != nil && v.Hi != nil {
		c.Lo, c.Hi = *v.Lo, *v.Hi
	}
	return nil
}

// Resolved reports whether c is settled in the sense of poolbench's
// adaptive sampling: its interval excludes 1 (0 for a difference) or is
// narrower than ±5% (±0.05).
func (c Comparison) Resolved() bool {
	lo, hi, _, res := c.space()
	return lo > 0 || hi < 0 || (hi-lo)/2 < res
}

// space returns the interval, the margin and the resolution in the space
// where 0 means no difference and positive values favour A: log ratio, or
// difference.
func (c Comparison) space() (lo, hi, margin, res float64) {
	if c.Diff {
		return c.Lo, c.Hi, c.Margin - 1, Resolution - 1
	}
	return math.Log(c.Lo), math.Log(c.Hi), math.Log(c.Margin), math.Log(Resolution)
}

// canBeBetter reports whether the interval reaches the margin in A's
// favour: more runs could still show A better.
func (c Comparison) canBeBetter() bool {
	_, hi, m, _ := c.space()
	return hi >= m
}

// canBeWorse reports whether the interval reaches the margin against A.
func (c Comparison) canBeWorse() bool {
	lo, _, m, _ := c.space()
	return lo <= -m
}

// String describes c for people: "pool vs alloc on ns/op: 1.62x (95% CI 1.55x–1.70x), better".
func (c Comparison) String() string {
	return fmt.Sprintf("%s vs %s on %s: %s (%.0f%% CI %s), %s", c.A, c.B, c.Unit, c.format(c.Factor), c.Confidence*100, c.interval(), c.Outcome)
}

// format formats an estimate or bound: "1.62x", or "+0.98" for a difference.
func (c Comparison) format(v float64) string {
	if c.Diff {
		return fmt.Sprintf("%+.2f", v)
	}
	return times(v)
}

// interval formats the confidence interval: "1.55x–1.70x".
func (c Comparison) interval() string {
	if math.IsInf(c.Lo, 0) || math.IsInf(c.Hi, 0) {
		return "no interval: too few runs"
	}
	return c.format(c.Lo) + "–" + c.format(c.Hi)
}

// Short describes c in a few words: "pool vs alloc 1.02x (0.60x–1.60x)".
func (c Comparison) Short() string {
	return fmt.Sprintf("%s vs %s %s (%s)", c.A, c.B, c.format(c.Factor), c.interval())
}

// floor is the smallest figure of unit that Compare tells apart from 0.
func floor(unit string) float64 {
	switch unit {
	case "retained-B":
		return benchmarks.RetainedFloor
	case "allocs/op":
		return 0.01
	case "B/op":
		return 1
	}
	return 1e-3
}

// Compare compares the runs a and b of unit with an interval at level
// confidence; margin is the ratio (for the hit ratio: margin-1 is the
// difference) that Better and Worse need.
func Compare(nameA, nameB, unit string, a, b []float64, margin, confidence float64) Comparison {
	c := Comparison{A: nameA, B: nameB, Unit: unit, Diff: unit == "hit-ratio", Margin: margin, Confidence: confidence}
	t := func(v float64) float64 { return math.Log(math.Max(v, floor(unit))) }
	if c.Diff {
		t = func(v float64) float64 { return -v } // a_i - b_j below is t(b) - t(a)
	}
	d := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			d = append(d, t(y)-t(x))
		}
	}
	slices.Sort(d)
	est, lo, hi := math.NaN(), math.Inf(-1), math.Inf(1)
	if len(d) > 0 {
		est = (d[(len(d)-1)/2] + d[len(d)/2]) / 2
		if k := hlRank(len(a), len(b), confidence); k > 0 {
			lo, hi = d[k-1], d[len(d)-k]
		}
	}
	// In transformed space (log ratio, or difference) a positive value
	// means A is better.
	m, res := math.Log(margin), math.Log(Resolution)
	if c.Diff {
		m, res = margin-1, Resolution-1
	}
	switch {
	case math.IsNaN(est):
		c.Outcome = Unknown
	case lo > 0 && est >= m:
		c.Outcome = Better
	case hi < 0 && est <= -m:
		c.Outcome = Worse
	case lo > 0 || hi < 0 || (hi-lo)/2 < res:
		c.Outcome = Same
	default:
		c.Outcome = Unknown
	}
	if c.Diff {
		c.Factor, c.Lo, c.Hi = est, lo, hi
	} else {
		c.Factor, c.Lo, c.Hi = math.Exp(est), math.Exp(lo), math.Exp(hi)
	}
	return c
}

var (
	hlMu    sync.Mutex
	hlRanks = map[[3]float64]int{}
)

// hlRank returns k such that the k-th smallest and k-th largest of the
// n*m pairwise differences bound a confidence interval of at least
// confidence for the shift between two samples of n and m runs: the
// largest k with P(U <= k-1) <= (1-confidence)/2 under the exact null
// distribution of the Mann–Whitney U statistic. 0 means the samples are
// too small for any interval (fewer than 4 runs each at 95%, 5 at 99%).
func hlRank(n, m int, confidence float64) int {
	if n == 0 || m == 0 {
		return 0
	}
	hlMu.Lock()
	defer hlMu.Unlock()
	key := [3]float64{float64(n), float64(m), confidence}
	if k, ok := hlRanks[key]; ok {
		return k
	}
	dist := stats.UDist{N1: n, N2: m}
	alpha := (1 - confidence) / 2
	k := 0
	for u := 0; u < n*m/2; u++ {
		if dist.CDF(float64(u)) > alpha {
			break
		}
		k = u + 1
	}
	hlRanks[key] = k
	return k
}
