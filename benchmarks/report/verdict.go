package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/poolkit/pool/benchmarks"
)

// Actions a Verdict can take.
const (
	ActPool         = "pool it"
	ActDontPool     = "don't pool"
	ActInconclusive = "inconclusive"
)

// NeedsMoreTime is how a verdict that its runs could not settle begins.
const NeedsMoreTime = "inconclusive: needs more time (-time/-count)"

// A Verdict says what to do about a workload: pool it (and with which
// strategy), don't pool, or that the runs could not tell.
//
// A strategy beats another when, on the units the workload judges (its
// Metric, then Also), it is better on at least one and worse on none (see
// Compare for better, worse and the margins). The verdict is:
//
//   - "don't pool" when no pooled strategy beats alloc (GateMargin);
//   - otherwise pooling pays, and it is "pool it" with the project's pool:
//     the first strategy of Project that is not worse than alloc (it need
//     not beat alloc by the margin itself: that some pool does is what
//     says pooling pays), replaced by a later one of Project that beats
//     it, unless a strategy not built on this project's pools beats that
//     one by SwitchMargin (at SwitchConfidence): then that strategy, with
//     what it gives up;
//   - "inconclusive: needs more time (-time/-count)" when a comparison it
//     needs could not be resolved (its interval contains 1 and is wider
//     than ±5%).
type Verdict struct {
	Action string `json:"action"` // ActPool, ActDontPool or ActInconclusive
	// Winner is the strategy to use: a pooled one for ActPool, "alloc"
	// for ActDontPool; "" when inconclusive.
	Winner string `json:"winner"`
	// Significant is true when the action rests on comparisons whose
	// confidence intervals exclude "no difference" (or bound it within
	// ±5%): false only when inconclusive.
	Significant bool `json:"significant"`
	// Pending are the comparisons the verdict needed and could not
	// resolve; poolbench keeps measuring while there are any.
	Pending []Comparison `json:"pending,omitempty"`
	// Basis are the comparisons the text quotes.
	Basis []Comparison `json:"basis"`
	Why   string       `json:"why"`  // the main reason in a few words
	Text  string       `json:"text"` // the verdict in full
}

// Resolved reports whether more runs could not change the verdict's kind.
func (v *Verdict) Resolved() bool { return len(v.Pending) == 0 }

// tri is a three-valued answer.
type tri int

const (
	no tri = iota
	yes
	unknown
)

// judge answers "does a beat b?" on units, remembering every comparison
// it makes.
type judge struct {
	r     *Result
	units []string
	made  map[[3]string]Comparison
}

// on returns j judging on other units, sharing the comparisons made.
func (j *judge) on(units []string) *judge { return &judge{r: j.r, units: units, made: j.made} }

func (j *judge) compare(a, b *Strategy, unit string, margin float64) Comparison {
	key := [3]string{a.Name, b.Name, unit + fmt.Sprint(margin)}
	if c, ok := j.made[key]; ok {
		return c
	}
	conf := Confidence
	if margin == SwitchMargin {
		conf = SwitchConfidence
	}
	c := Compare(a.Name, b.Name, unit, a.values(unit), b.values(unit), margin, conf)
	j.made[key] = c
	return c
}

// beats says whether a beats b: better on one judged unit and worse on
// none. It is no as soon as a is worse on a unit, or no interval reaches
// the margin in a's favour (more runs could not show a better); yes when
// a is better on a unit and on every other unit either better or settled
// (Comparison.Resolved) or bounded within the margin. pending are the
// unsettled comparisons that leave it unknown.
func (j *judge) beats(a, b *Strategy, margin float64) (ans tri, pending []Comparison) {
	var cs []Comparison
	better, canBeBetter := false, false
	for _, u := range j.units {
		c := j.compare(a, b, u, margin)
		if c.Outcome == Worse {
			return no, nil
		}
		better = better || c.Outcome == Better
		canBeBetter = canBeBetter || c.canBeBetter()
		cs = append(cs, c)
	}
	if !canBeBetter {
		return no, nil
	}
	for _, c := range cs {
		if c.Outcome == Better || c.Resolved() {
			continue
		}
		if better && !c.canBeWorse() {
			continue
		}
		pending = append(pending, c)
	}
	switch {
	case len(pending) > 0:
		return unknown, pending
	case better:
		return yes, nil
	}
	return no, nil
}

// Decide returns the verdict on r (see Verdict).
func Decide(r *Result) Verdict {
	j := &judge{r: r, units: r.Judged(), made: map[[3]string]Comparison{}}
	gate := j.on(r.GateUnits())
	var alloc *Strategy
	var pooled, project []*Strategy
	for i := range r.Strategies {
		s := &r.Strategies[i]
		if !hasUnits(s, j.units) || !hasUnits(s, gate.units) {
			continue
		}
		if s.Name == "alloc" {
			alloc = s
		} else {
			pooled = append(pooled, s)
		}
	}
	for _, name := range r.Project {
		if s := r.strategy(name); s != nil && hasUnits(s, j.units) {
			project = append(project, s)
		}
	}
	if len(pooled) == 0 {
		return Verdict{Action: ActInconclusive, Text: "no verdict: no pooled strategy measured on " + strings.Join(j.units, ", ")}
	}

	// Gate: does any pooled strategy beat alloc?
	var winners []*Strategy
	var gatePending []Comparison
	if alloc == nil {
		winners = pooled // alloc filtered out: compare the pools only
	} else {
		for _, p := range pooled {
			switch ans, pend := gate.beats(p, alloc, GateMargin); ans {
			case yes:
				winners = append(winners, p)
			case unknown:
				gatePending = append(gatePending, pend...)
			}
		}
	}
	if len(winners) == 0 {
		if len(gatePending) > 0 {
			return inconclusive(r, gatePending)
		}
		return dontPool(r, gate, alloc, pooled)
	}

	// The project's pool: the first of Project that is not worse than
	// alloc, or a later one that beats it. Whether a project pool itself
	// clears the gate margin does not decide it: a pool that sits near the
	// margin would come and go from run to run (tinystruct did), while
	// "pooling pays" rests on the best pool's comparison.
	var rec *Strategy
	var pending []Comparison
	for _, p := range project {
		if !gate.notWorse(p, alloc) {
			continue
		}
		if rec == nil {
			rec = p
			continue
		}
		ans, pend := j.beats(p, rec, SwitchMargin)
		if ans == yes {
			rec = p
		}
		pending = append(pending, pend...)
	}
	best := rec
	for _, s := range winners {
		if best == nil {
			best = s
			continue
		}
		if s == best || (rec != nil && s.Project) {
			continue
		}
		ans, pend := j.beats(s, best, SwitchMargin)
		if ans == yes {
			best = s
		}
		pending = append(pending, pend...)
	}
	// The pool whose comparison with alloc says pooling pays, when the
	// recommended one does not beat alloc by the margin itself.
	var payer *Strategy
	if !slices.Contains(winners, best) {
		for _, w := range winners {
			if payer == nil || gate.compare(w, alloc, r.Metric, GateMargin).Factor > gate.compare(payer, alloc, r.Metric, GateMargin).Factor {
				payer = w
			}
		}
	}
	// The fastest challenger that did not win, for the text.
	var faster *Strategy
	if best == rec && rec != nil {
		top := 1.0
		for _, s := range winners {
			if s == rec || s.Project {
				continue
			}
			// Ratios only: the text says "1.13x faster".
			if c := j.compare(s, rec, r.Metric, SwitchMargin); !c.Diff && c.Factor > top {
				faster, top = s, c.Factor
			}
		}
	}
	return poolIt(r, j, gate, alloc, rec, best, payer, faster, pending)
}

// notWorse says whether a is not shown worse than b (by the margin, at
// the comparisons' confidence) on any of j's units. The project's pool is
// the default: dropping it takes evidence, as switching to another
// strategy does, so an interval too wide to tell leaves it in place
// rather than making the verdict wait (on a noisy machine tinystruct's
// pool.Pool, within 3% of alloc, kept its verdict "inconclusive").
func (j *judge) notWorse(a, b *Strategy) bool {
	if b == nil {
		return true
	}
	for _, u := range j.units {
		if c := j.compare(a, b, u, GateMargin); c.Outcome == Worse {
			return false
		}
	}
	return true
}

func hasUnits(s *Strategy, units []string) bool {
	for _, u := range units {
		if s.Stat(u) == nil {
			return false
		}
	}
	return true
}

func inconclusive(r *Result, pending []Comparison) Verdict {
	var parts, short []string
	for _, c := range pending {
		parts = append(parts, c.String())
		short = append(short, c.Short())
	}
	return Verdict{Action: ActInconclusive, Pending: pending, Why: "unsettled: " + strings.Join(short, ", "),
		Text: fmt.Sprintf("%s: after %d runs, %s", NeedsMoreTime, r.Runs, strings.Join(parts, "; "))}
}

func dontPool(r *Result, j *judge, alloc *Strategy, pooled []*Strategy) Verdict {
	// Quote the pooled strategy that comes closest on the main unit.
	var closest Comparison
	for i, p := range pooled {
		c := j.compare(p, alloc, r.Metric, GateMargin)
		if i == 0 || c.Factor > closest.Factor {
			closest = c
		}
	}
	a := alloc.Stat
	text := fmt.Sprintf("%s: allocating (%s allocs/op, %s per op) beats every pool on %s; the closest, %s: %s",
		ActDontPool, FormatValue("allocs/op", a("allocs/op").Median), FormatValue("ns/op", a("ns/op").Median),
		strings.Join(j.units, " and "), closest.A, describe(r, closest))
	return Verdict{Action: ActDontPool, Winner: "alloc", Significant: true, Basis: []Comparison{closest},
		Why: "the closest pool, " + closest.A + ": " + describe(r, closest), Text: text}
}

// poolIt is the verdict "pool it" with best; rec is the project's pool
// (nil if none is eligible: every one is worse than alloc); payer, if
// not nil, is the pool that beats alloc when best does not by the margin;
// faster, if not nil, a strategy faster than rec by less than the switch
// margin.
func poolIt(r *Result, j, gate *judge, alloc, rec, best, payer, faster *Strategy, pending []Comparison) Verdict {
	v := Verdict{Action: ActPool, Winner: best.Name, Significant: true, Pending: pending}
	var parts []string
	if alloc != nil {
		for _, u := range gate.units {
			c := j.compare(best, alloc, u, GateMargin)
			v.Basis = append(v.Basis, c)
			parts = append(parts, describe(r, c))
		}
	}
	if b := r.strategy(r.Baseline); b != nil && b != alloc && b != best && hasUnits(b, j.units) {
		c := j.compare(best, b, r.Metric, SwitchMargin)
		v.Basis = append(v.Basis, c)
		parts = append(parts, describe(r, c))
	}
	text := fmt.Sprintf("%s: %s (%s)", ActPool, best.Name, best.Doc)
	v.Why = strings.Join(parts, ", ")
	if best != rec {
		v.Why = best.Name + ": " + v.Why
	}
	if len(parts) > 0 {
		text += ": " + strings.Join(parts, ", ")
	}
	if payer != nil && alloc != nil {
		c := j.compare(payer, alloc, r.Metric, GateMargin)
		v.Basis = append(v.Basis, c)
		text += fmt.Sprintf("; pooling pays here (%s: %s), and %s is not shown worse than alloc", payer.Name, describe(r, c), best.Name)
	}
	if faster != nil {
		c := j.compare(faster, rec, r.Metric, SwitchMargin)
		v.Basis = append(v.Basis, c)
		word := "better on " + c.Unit
		if c.Unit == "ns/op" {
			word = "faster"
		}
		text += fmt.Sprintf("; %s is %s %s than %s (%s vs %s), less than the %.0f%% it would take to recommend it instead",
			faster.Name, times(c.Factor), word, rec.Name, formatMedian(c.Unit, faster.Stat(c.Unit).Median), formatMedian(c.Unit, rec.Stat(c.Unit).Median), (SwitchMargin-1)*100)
		if faster.GivesUp != "" {
			text += " (it gives up " + faster.GivesUp + ")"
		}
	}
	switch {
	case rec == nil && len(r.Project) > 0:
		text += fmt.Sprintf("; the project's pool (%s) is worse than alloc here", strings.Join(r.Project, ", "))
		if best.GivesUp != "" {
			text += "; " + best.Name + " gives up " + best.GivesUp
		}
	case rec != nil && best != rec:
		var cs []string
		for _, u := range j.units {
			c := j.compare(best, rec, u, SwitchMargin)
			v.Basis = append(v.Basis, c)
			cs = append(cs, describe(r, c))
		}
		text += fmt.Sprintf("; it beats the project's pool: %s", strings.Join(cs, ", "))
		if best.GivesUp != "" {
			text += "; but gives up " + best.GivesUp
		}
	}
	if len(pending) > 0 {
		var ps []string
		for _, c := range pending {
			if p := c.A + " vs " + c.B; !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
		text += fmt.Sprintf(" (unsettled after %d runs: %s; %s)", r.Runs, strings.Join(ps, ", "), NeedsMoreTime)
	}
	v.Text = text
	return v
}

// describe says c in words: "1.62x faster than alloc (412 vs 677 ns/op)".
func describe(r *Result, c Comparison) string {
	a, b := r.strategy(c.A), r.strategy(c.B)
	ma, mb := a.Stat(c.Unit).Median, b.Stat(c.Unit).Median
	va, vb := formatMedian(c.Unit, ma), formatMedian(c.Unit, mb)
	switch c.Unit {
	case "hit-ratio":
		return fmt.Sprintf("hit ratio %s (%s: %s)", va, c.B, vb)
	case "retained-B":
		return fmt.Sprintf("retains %s after the load (%s: %s)", va, c.B, vb)
	}
	if fl := floor(c.Unit); c.Unit != "ns/op" && (ma < fl || mb < fl) && c.Outcome == Better {
		// A ratio against (nearly) nothing means little: quote the figures.
		return fmt.Sprintf("%s %s (%s: %s)", va, c.Unit, c.B, vb)
	}
	if c.Outcome == Same || c.Outcome == Unknown && c.Factor < c.Margin && c.Factor > 1/c.Margin {
		return fmt.Sprintf("%s within %.0f%% of %s (%s vs %s)", c.Unit, (c.Margin-1)*100, c.B, va, vb)
	}
	more, less := "slower", "faster"
	if c.Unit != "ns/op" {
		more, less = "more "+c.Unit, "fewer "+c.Unit
	}
	if c.Factor >= 1 {
		return fmt.Sprintf("%s %s than %s (%s vs %s)", times(c.Factor), less, c.B, va, vb)
	}
	return fmt.Sprintf("%s %s than %s (%s vs %s)", times(1/c.Factor), more, c.B, va, vb)
}

// formatMedian is FormatValue, with retained heap below the floor shown
// as "<64KiB".
func formatMedian(unit string, v float64) string {
	if unit == "retained-B" && v < benchmarks.RetainedFloor {
		return "<" + formatBytes(benchmarks.RetainedFloor)
	}
	return FormatValue(unit, v)
}

func (r *Result) strategy(name string) *Strategy {
	for i := range r.Strategies {
		if r.Strategies[i].Name == name {
			return &r.Strategies[i]
		}
	}
	return nil
}

func times(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0fx", r)
	}
	return fmt.Sprintf("%.3gx", r)
}
