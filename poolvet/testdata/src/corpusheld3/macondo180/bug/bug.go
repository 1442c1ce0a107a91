// Package bug reproduces the shape of domino14/macondo#180
// (https://github.com/domino14/macondo/pull/180, "use sync.Pool only with
// pointer type", fixing staticcheck SA6002): Lexicon.HasAnagram pooled
// DawgAnagrammer structs by value. Each Put boxed a copy of the struct (an
// allocation), and the frequency table the methods grow on the local copy
// was never the one that went back to the pool.
//
// Check: nonpointer (a struct value put into a sync.Pool, deferred Put).
package bug

import (
	"errors"
	"sync"
)

type MachineWord []uint8

const blank = 0

var errHasBlanks = errors.New("word has blanks")

// DawgAnagrammer finds anagrams of a word.
type DawgAnagrammer struct {
	ans         MachineWord
	freq        []uint8
	blanks      uint8
	queryLength int
}

func (da *DawgAnagrammer) commonInit(numLetters int) {
	if cap(da.freq) < numLetters {
		da.freq = make([]uint8, numLetters)
	} else {
		da.freq = da.freq[:numLetters]
		for i := range da.freq {
			da.freq[i] = 0
		}
	}
	da.blanks = 0
	da.queryLength = 0
	da.ans = da.ans[:0]
}

func (da *DawgAnagrammer) InitForMachineWord(numLetters int, word MachineWord) error {
	da.commonInit(numLetters)
	da.queryLength = len(word)
	for _, v := range word {
		if v == blank {
			da.blanks++
		} else if int(v) < numLetters {
			da.freq[v]++
		} else {
			return errors.New("invalid letter")
		}
	}
	return nil
}

func (da *DawgAnagrammer) IsValidJumble(numLetters int, word MachineWord) (bool, error) {
	if err := da.InitForMachineWord(numLetters, word); err != nil {
		return false, err
	} else if da.blanks > 0 {
		return false, errHasBlanks
	}
	return da.queryLength > 0, nil
}

type Lexicon struct {
	NumLetters int
}

var daPool = sync.Pool{
	New: func() any {
		return DawgAnagrammer{}
	},
}

func (l Lexicon) HasAnagram(word MachineWord) bool {
	da := daPool.Get().(DawgAnagrammer)
	defer daPool.Put(da) // want `nonpointer`

	v, err := da.IsValidJumble(l.NumLetters, word)
	if err != nil {
		return false
	}
	return v
}
