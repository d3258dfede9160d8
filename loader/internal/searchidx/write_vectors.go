package searchidx

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
)

// vectors writes the model's vectors of searchable chunks: full, and as
// int8 codes by dimension with a scale per vector. A vector is its text's;
// its chunks come with it from DuckDB (temp.searchidx_texts: each text's
// chunk ordinals, grouped once), and the vectors are written in the order
// of their texts' first chunk, a batch of BuildOptions.BatchChunks
// ordinals a statement, so neither a map of every text nor every vector
// is held at once (at 200k documents the map of 1.16M text hashes was
// this process's largest part). The codes are not held in memory either
// (at a million 256-dimension vectors they and their transpose were 600
// MB of the build's peak): the full vectors are written first, then read
// back from the file a block at a time and written as codes into each
// dimension's place.
func (w *writer) vectors(ctx context.Context, conn *sql.Conn, model string) error {
	fail := func(err error) error { return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err) }
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_texts as
		select text_hash, list(ord order by ord) as ords, min(ord) as first
		from temp.searchidx_ords group by text_hash order by first`); err != nil {
		return fail(err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists temp.searchidx_texts`)
	if err := w.begin(); err != nil {
		return err
	}
	vw := &vecWriter{w: w}
	for b0 := 0; b0 < w.h.Chunks; b0 += w.o.batch() {
		if err := vw.batch(ctx, conn, model, b0, b0+w.o.batch()); err != nil {
			return err
		}
	}
	scales, norms, chOff, chunks, covered := vw.scales, vw.norms, vw.chOff, vw.chunks, vw.covered
	w.end(secVec32)
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

// vecWriter writes the full vectors and keeps what each needs besides.
type vecWriter struct {
	w       *writer
	scales  []float32
	norms   []float64
	chOff   []uint32
	chunks  []uint32
	covered int
	first   int64 // the last text's first chunk ordinal written (-1: none)
	buf     []byte
	started bool
}

// batch writes the vectors of the texts whose first chunk ordinal is in
// [from, to), in that order.
func (v *vecWriter) batch(ctx context.Context, conn *sql.Conn, model string, from, to int) error {
	w := v.w
	if !v.started {
		v.started, v.first = true, -1
	}
	rows, err := conn.QueryContext(ctx, `select t.first, t.ords, c.embedding
		from temp.searchidx_texts as t join embeddings.chunk_vectors as c using (text_hash)
		where c.model = ? and c.embedding is not null and t.first >= ? and t.first < ?
		order by t.first`, model, from, to)
	if err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	defer rows.Close()
	var first int64
	var ordsAny, emb []any
	for rows.Next() {
		if err := rows.Scan(&first, &ordsAny, &emb); err != nil {
			return fmt.Errorf("search index: reading embeddings.chunk_vectors (a FLOAT[n] embedding): %w", err)
		}
		if first == v.first {
			continue // one vector per text and model: this text's is taken
		}
		v.first = first
		if w.h.Dims == 0 {
			w.h.Dims = len(emb)
		}
		if len(emb) != w.h.Dims || len(emb) == 0 {
			return fmt.Errorf("search index: embeddings.chunk_vectors: vectors of %d and %d dimensions", w.h.Dims, len(emb))
		}
		v.buf = v.buf[:0]
		var maxAbs float32
		var n2 float64
		for _, x := range emb {
			f, ok := x.(float32)
			if !ok {
				return fmt.Errorf("search index: embeddings.chunk_vectors: %T values (a FLOAT[n] array is expected)", x)
			}
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return fmt.Errorf("search index: embeddings.chunk_vectors: a vector has %v", f)
			}
			v.buf = le.AppendUint32(v.buf, math.Float32bits(f))
			maxAbs = max(maxAbs, float32(math.Abs(float64(f))))
			n2 += float64(f) * float64(f)
		}
		v.covered += len(ordsAny)
		if n2 == 0 {
			// A zero vector's cosine distance is undefined (DuckDB
			// returns NaN); such a chunk is found by BM25 only.
			continue
		}
		v.scales = append(v.scales, maxAbs/127)
		v.norms = append(v.norms, math.Sqrt(n2))
		v.chOff = append(v.chOff, uint32(len(v.chunks)))
		for _, o := range ordsAny {
			ord, ok := o.(uint64)
			if !ok {
				return fmt.Errorf("search index: chunk ordinals of %T", o)
			}
			v.chunks = append(v.chunks, uint32(ord))
		}
		if err := w.write(v.buf); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
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
