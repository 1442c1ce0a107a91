// Package bug reproduces the shape of IBM/TSS#27 (https://github.com/IBM/TSS/pull/27):
// in the threshold-BLS Shamir secret sharing code, lagrangeCoefficient took a
// scratch *big.Int for j from gnark-crypto's pool.BigInt, computed
// nominator.Mul(nominator, denominator) - which writes into and returns the
// receiver, i.e. the pooled jScalar itself - appended that result to
// prodElements and then put jScalar back into the pool at the end of the
// iteration. The next iteration (or another goroutine) gets the same big.Int
// and overwrites it, and the final product is computed from the recycled
// values, so signature shares were combined with wrong coefficients. The fix
// drops the pool and allocates jScalar with big.NewInt.
// Check: useafterput (fixed twin: jScalar is a fresh big.Int owned by
// prodElements; nothing goes back to the pool).
package bug

import (
	"math/big"
	"sync"
)

// bigIntPool mirrors gnark-crypto's field/pool.BigInt.
type bigIntPool struct {
	p sync.Pool
}

// Get returns a *big.Int from the pool.
func (bp *bigIntPool) Get() *big.Int { return bp.p.Get().(*big.Int) }

// Put returns v to the pool.
func (bp *bigIntPool) Put(v *big.Int) { bp.p.Put(v) }

// BigInt is the shared pool.
var BigInt = &bigIntPool{p: sync.Pool{New: func() any { return new(big.Int) }}}

var frModulus, _ = new(big.Int).SetString("21888242871839275222246405745257275088548364400416034343698204186575808495617", 10)

// Modulus returns the scalar field modulus.
func Modulus() *big.Int { return new(big.Int).Set(frModulus) }

func lagrangeCoefficient(evaluatedAt int64, evaluationPoints ...int64) *big.Int {
	var prodElements []*big.Int

	iScalar := big.NewInt(evaluatedAt)

	for _, j := range evaluationPoints {
		if evaluatedAt == j {
			continue
		}

		jScalar := big.NewInt(j)

		nominator := jScalar // j

		n := big.NewInt(0)
		n.Sub(jScalar, iScalar) // j-i
		denominator := n.Mod(n, Modulus())

		denominator.ModInverse(denominator, Modulus())

		division := nominator.Mul(nominator, denominator) // j / (j-i)

		prodElements = append(prodElements, division)
	}

	if len(prodElements) == 0 {
		panic("empty lagrange coefficient vector")
	}

	prod := prodElements[0]
	for i := 1; i < len(prodElements); i++ {
		prod = prod.Mul(prod, prodElements[i])
	}

	return prod
}

// Combine interpolates the secret at 0 from shares evaluated at 1..n.
func Combine(shares map[int64]*big.Int) *big.Int {
	var points []int64
	for x := range shares {
		points = append(points, x)
	}
	sum := big.NewInt(0)
	for _, x := range points {
		c := lagrangeCoefficient(x, points...)
		term := new(big.Int).Mul(c, shares[x])
		sum.Add(sum, term)
	}
	return sum.Mod(sum, Modulus())
}
