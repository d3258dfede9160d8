package searchidx

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
)

// vectors writes the model's vectors of searchable chunks: full, and as
// int8 codes by dimension with a scale per vector. The codes are not held
// in memory (at a million 256-dimension vectors they and their transpose
// were 600 MB of the build's peak): the full vectors are written first,
// then read back from the file a block at a time and written as codes
// into each dimension's place.
func (w *writer) vectors(ctx context.Context, conn *sql.Conn, model string, only bool) error {
	rows, err := conn.QueryContext(ctx, `select text_hash, embedding from embeddings.chunk_vectors
		where model = ? and embedding is not null
		  and text_hash in (select text_hash from retrieval.search_chunks `+onlyKeys(only, "where")+`)`, model)
	if err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	defer rows.Close()
	if err := w.begin(); err != nil {
		return err
	}
	var scales []float32
	var norms []float64
	var chOff []uint32
	var chunks []uint32
	var th string
	var emb []any
	covered := 0
	buf := []byte{}
	for rows.Next() {
		if err := rows.Scan(&th, &emb); err != nil {
			return fmt.Errorf("search index: reading embeddings.chunk_vectors (a FLOAT[n] embedding): %w", err)
		}
		ords, ok := w.textHash[th]
		if !ok {
			continue // one vector per text and model: this text's is taken
		}
		delete(w.textHash, th)
		if w.h.Dims == 0 {
			w.h.Dims = len(emb)
		}
		if len(emb) != w.h.Dims || len(emb) == 0 {
			return fmt.Errorf("search index: embeddings.chunk_vectors: vectors of %d and %d dimensions", w.h.Dims, len(emb))
		}
		buf = buf[:0]
		var maxAbs float32
		var n2 float64
		for _, v := range emb {
			f, ok := v.(float32)
			if !ok {
				return fmt.Errorf("search index: embeddings.chunk_vectors: %T values (a FLOAT[n] array is expected)", v)
			}
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return fmt.Errorf("search index: embeddings.chunk_vectors: a vector has %v", f)
			}
			buf = le.AppendUint32(buf, math.Float32bits(f))
			maxAbs = max(maxAbs, float32(math.Abs(float64(f))))
			n2 += float64(f) * float64(f)
		}
		covered += len(ords)
		if n2 == 0 {
			// A zero vector's cosine distance is undefined (DuckDB
			// returns NaN); such a chunk is found by BM25 only.
			continue
		}
		scales = append(scales, maxAbs/127)
		norms = append(norms, math.Sqrt(n2))
		chOff = append(chOff, uint32(len(chunks)))
		chunks = append(chunks, ords...)
		if err := w.write(buf); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	w.end(secVec32)
	w.textHash = nil
	v := len(scales)
	w.h.Vectors = v
	w.h.ChunksWithoutVector = w.h.Chunks - covered
	chOff = append(chOff, uint32(len(chunks)))
	if err := w.codes(scales); err != nil {
		return err
	}
	sc := make([]byte, 0, 4*v)
	for _, s := range scales {
		sc = le.AppendUint32(sc, math.Float32bits(s))
	}
	nb := make([]byte, 0, 8*v)
	for _, n := range norms {
		nb = le.AppendUint64(nb, math.Float64bits(n))
	}
	for _, s := range []struct {
		name string
		b    []byte
	}{{secVecScale, sc}, {secVecNorm, nb}, {secVecChOff, u32s(chOff)}, {secVecChunks, u32s(chunks)}} {
		if err := w.section(s.name, s.b); err != nil {
			return err
		}
	}
	return nil
}

// codeBlock is how many vectors' codes are made at once from the full
// vectors written before them.
const codeBlock = 16384

// codes writes the codes section (Dims × Vectors int8, dimension-major):
// the vec32 section just written is read back a block of vectors at a time
// and each block's codes are written into every dimension's run.
func (w *writer) codes(scales []float32) error {
	v, d := len(scales), w.h.Dims
	if err := w.begin(); err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	start := w.pos
	if _, err := w.f.Seek(int64(v)*int64(d), io.SeekCurrent); err != nil {
		return err
	}
	w.pos += int64(v) * int64(d)
	w.end(secVecCodes)
	vec := w.h.Sections[secVec32][0]
	rowBytes := 4 * int64(d)
	in := make([]byte, min(v, codeBlock)*int(rowBytes))
	out := make([]byte, min(v, codeBlock)*d)
	for b0 := 0; b0 < v; b0 += codeBlock {
		n := min(codeBlock, v-b0)
		if _, err := w.f.ReadAt(in[:int64(n)*rowBytes], vec+int64(b0)*rowBytes); err != nil {
			return fmt.Errorf("search index: reading back vectors: %w", err)
		}
		for j := range n {
			scale := scales[b0+j]
			row := in[int64(j)*rowBytes:]
			for i := range d {
				f := math.Float32frombits(le.Uint32(row[4*i:]))
				out[i*n+j] = byte(int8(math.Round(float64(f / scale))))
			}
		}
		for i := range d {
			if _, err := w.f.WriteAt(out[i*n:(i+1)*n], start+int64(i)*int64(v)+int64(b0)); err != nil {
				return err
			}
		}
	}
	return nil
}
