// Package fixed is domino14/macondo#180 with the project's fix: the pool
// holds *DawgAnagrammer.
package fixed

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
		return &DawgAnagrammer{}
	},
}

func (l Lexicon) HasAnagram(word MachineWord) bool {
	da := daPool.Get().(*DawgAnagrammer)
	defer daPool.Put(da)

	v, err := da.IsValidJumble(l.NumLetters, word)
	if err != nil {
		return false
	}
	return v
}
