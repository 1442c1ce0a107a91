package fixed

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
)

var errProofCreation = errors.New("reserve commitment hasher: failure in proof creation")

type SampleItem struct {
	ChunkAddress []byte
	ChunkData    []byte
}

type ChunkInclusionProof struct {
	ProofSegments  [][32]byte
	ProveSegment   [32]byte
	ProofSegments2 [][32]byte
	ProveSegment2  [32]byte
	ChunkSpan      uint64
	ProofSegments3 [][32]byte
}

type ChunkInclusionProofs struct {
	A ChunkInclusionProof
}

func NewChunkInclusionProof(proofp1, proofp2, proofp3 Proof, sampleItem SampleItem) (ChunkInclusionProof, error) {
	return ChunkInclusionProof{
		ProofSegments:  toCommonHash(proofp1.ProofSegments),
		ProveSegment:   bytesToHash(proofp1.ProveSegment),
		ProofSegments2: toCommonHash(proofp2.ProofSegments),
		ProveSegment2:  bytesToHash(proofp2.ProveSegment),
		ChunkSpan:      binary.LittleEndian.Uint64(proofp2.Span[:SpanSize]),
		ProofSegments3: toCommonHash(proofp3.ProofSegments),
	}, nil
}

func bytesToHash(b []byte) (h [32]byte) {
	copy(h[:], b)
	return h
}

func toCommonHash(hashes [][]byte) [][32]byte {
	output := make([][32]byte, len(hashes))
	for i, s := range hashes {
		output[i] = bytesToHash(s)
	}
	return output
}

// makeInclusionProofs creates transaction data for the claim method.
func makeInclusionProofs(rscData []byte, item SampleItem, require1 uint64, segmentIndex int, anchor1 []byte) (ChunkInclusionProofs, error) {
	prefixHasherFactory := func() hash.Hash {
		h := sha256.New()
		h.Write(anchor1)
		return h
	}
	prefixHasherPool := NewPool(NewConf(prefixHasherFactory, 128, 8))

	// Sample chunk proofs
	rccontent := Prover{Hasher: bmtpoolGet()}
	rccontent.SetHeaderInt64(int64(len(rscData)))
	_, err := rccontent.Write(rscData[SpanSize:])
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	_, err = rccontent.Hash(nil)
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	proof1p1 := rccontent.Proof(int(require1) * 2)
	bmtpoolPut(rccontent.Hasher)

	// OG chunk proof
	chunk1Content := Prover{Hasher: bmtpoolGet()}
	chunk1Content.SetHeader(item.ChunkData[:SpanSize])
	chunk1ContentPayload := item.ChunkData[SpanSize:]
	_, err = chunk1Content.Write(chunk1ContentPayload)
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	_, err = chunk1Content.Hash(nil)
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	proof1p2 := chunk1Content.Proof(segmentIndex)
	// TR chunk proof
	chunk1TrContent := Prover{Hasher: prefixHasherPool.Get()}
	chunk1TrContent.SetHeader(item.ChunkData[:SpanSize])
	_, err = chunk1TrContent.Write(chunk1ContentPayload)
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	_, err = chunk1TrContent.Hash(nil)
	if err != nil {
		return ChunkInclusionProofs{}, errProofCreation
	}
	proof1p3 := chunk1TrContent.Proof(segmentIndex)
	// cleanup
	bmtpoolPut(chunk1Content.Hasher)
	prefixHasherPool.Put(chunk1TrContent.Hasher)

	A, err := NewChunkInclusionProof(proof1p1, proof1p2, proof1p3, item)
	if err != nil {
		return ChunkInclusionProofs{}, err
	}
	return ChunkInclusionProofs{A: A}, nil
}
