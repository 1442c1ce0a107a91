// Package bug is the fixed twin of go-openapi/validate#260 (https://github.com/go-openapi/validate/pull/260):
// results borrowed from the package-wide results pool are marked "redeem on merge", and
// Result.Merge hands every such argument back to the sync.Pool once its errors are copied.
// validateRequiredDefinitions merged the per-property result into the aggregate and only then
// asked red.IsValid(); by that time red was already back in the pool, and a concurrent spec
// validation could borrow it and clear it, racing with (and corrupting) the read.
// The fix captures the validity into a local before merging.
// Check: useafterput (none expected here).
package bug

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
)

// Result collects the errors and warnings of one validation step.
type Result struct {
	Errors     []error
	Warnings   []error
	MatchCount int

	wantsRedeemOnMerge bool
}

var emptyResult = &Result{}

const maxPooledErrors = 256

type resultsPool struct {
	*sync.Pool
}

type allPools struct {
	poolOfResults resultsPool
}

var pools = allPools{
	poolOfResults: resultsPool{Pool: &sync.Pool{New: func() any { return &Result{} }}},
}

func (p resultsPool) BorrowResult() *Result {
	return p.Get().(*Result).cleared()
}

func (p resultsPool) RedeemResult(s *Result) {
	if s == emptyResult {
		return
	}
	if cap(s.Errors) > maxPooledErrors || cap(s.Warnings) > maxPooledErrors {
		return
	}
	p.Put(s)
}

func (r *Result) cleared() *Result {
	// clear the Result to be reusable, keeping allocated capacity
	r.Errors = r.Errors[:0]
	r.Warnings = r.Warnings[:0]
	r.MatchCount = 0
	r.wantsRedeemOnMerge = true // eligible for redeem when merged into another result
	return r
}

func (r *Result) AddErrors(errs ...error)   { r.Errors = append(r.Errors, errs...) }
func (r *Result) AddWarnings(errs ...error) { r.Warnings = append(r.Warnings, errs...) }

// IsValid returns true when no errors were collected.
func (r *Result) IsValid() bool {
	if r == nil {
		return true
	}
	return len(r.Errors) == 0
}

// Merge folds the others into r; pooled others are redeemed to the pool afterwards.
func (r *Result) Merge(others ...*Result) *Result {
	for _, other := range others {
		if other == nil {
			continue
		}
		r.AddErrors(other.Errors...)
		r.AddWarnings(other.Warnings...)
		r.MatchCount += other.MatchCount
		if other.wantsRedeemOnMerge {
			pools.poolOfResults.RedeemResult(other)
		}
	}
	return r
}

type Schema struct {
	Required             []string
	ReadOnly             bool
	Properties           map[string]Schema
	PatternProperties    map[string]Schema
	AdditionalProperties *Schema
}

type Options struct {
	ContinueOnErrors bool
}

type SpecValidator struct {
	Definitions map[string]Schema
	Options     Options
}

func (s *SpecValidator) validateRequiredDefinitions() *Result {
	// Each property listed in the required array must be defined in the properties of the model
	res := pools.poolOfResults.BorrowResult()

DEFINITIONS:
	for d, schema := range s.Definitions {
		if schema.Required != nil { // Safeguard
			for _, pn := range schema.Required {
				red := s.validateRequiredProperties(pn, d, &schema)
				// capture validity before merging: Merge may redeem red to the pool
				isValid := red.IsValid()
				res.Merge(red)
				if !isValid && !s.Options.ContinueOnErrors {
					break DEFINITIONS // there is an error, let's stop that bleeding
				}
			}
		}
	}
	return res
}

func (s *SpecValidator) validateRequiredProperties(path, in string, v *Schema) *Result {
	res := pools.poolOfResults.BorrowResult()
	propertyMatch := false
	patternMatch := false
	additionalPropertiesMatch := false
	isReadOnly := false

	if p, ok := v.Properties[path]; ok {
		propertyMatch = true
		isReadOnly = p.ReadOnly
	}

	for pp, pv := range v.PatternProperties {
		re, err := regexp.Compile(pp)
		if err != nil {
			res.AddErrors(fmt.Errorf("pattern %q in %s is invalid", pp, in))
		} else if re.MatchString(path) {
			patternMatch = true
			if !propertyMatch {
				isReadOnly = pv.ReadOnly
			}
		}
	}

	if !propertyMatch && !patternMatch && v.AdditionalProperties != nil {
		red := s.validateRequiredProperties(path, in, v.AdditionalProperties)
		if red.IsValid() {
			additionalPropertiesMatch = true
			isReadOnly = v.AdditionalProperties.ReadOnly
		}
		res.Merge(red)
	}

	if !propertyMatch && !patternMatch && !additionalPropertiesMatch {
		res.AddErrors(fmt.Errorf("%q is present in required but not defined as property in definition %q", path, in))
	}

	if isReadOnly {
		res.AddWarnings(errors.New(in + "." + path + " is read-only and required"))
	}
	return res
}

// Validate runs the required-definitions check and reports whether the spec is valid.
func (s *SpecValidator) Validate() (bool, []error) {
	res := pools.poolOfResults.BorrowResult()
	res.Merge(s.validateRequiredDefinitions())
	errs := append([]error(nil), res.Errors...)
	valid := len(errs) == 0
	pools.poolOfResults.RedeemResult(res)
	return valid, errs
}
