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
// the texts with a vector are numbered in the order of their first chunk
// in DuckDB (temp.searchidx_vecs, with each text's chunk ordinals), and
// embeddings.chunk_vectors is read in its stored order, a range of
// BuildOptions.BatchChunks row ids a statement (DuckDB skips the other
// row groups), each vector written into its number's place in the file.
// So no statement reads (or, in DuckDB's driver, holds) more than a
// batch's vectors, and this process holds neither a map of every text
// nor every vector: at 200k documents, statements that each joined a
// batch of texts with every vector peaked at 1.8 GB RSS and read all of
// chunk_vectors a batch. The codes are not held in memory either (at a
// million 256-dimension vectors they and their transpose were 600 MB of
// the build's peak): the full vectors are written first, then read back
// from the file a block at a time and written as codes into each
// dimension's place.
func (w *writer) vectors(ctx context.Context, conn *sql.Conn, model string) error {
	fail := func(err error) error { return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err) }
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_vecs as
		select text_hash, ords, (row_number() over (order by first) - 1)::ubigint as vi
		from (select text_hash, list(ord order by ord) as ords, min(ord) as first
			from temp.searchidx_ords where has_vector group by text_hash)`); err != nil {
		return fail(err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists temp.searchidx_vecs`)
	var n int
	var last sql.NullInt64
	if err := conn.QueryRowContext(ctx, `select (select count(*) from temp.searchidx_vecs), (select max(rowid) from embeddings.chunk_vectors)`).Scan(&n, &last); err != nil {
		return fail(err)
	}
	if err := w.begin(); err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	vw := &vecWriter{w: w, start: w.pos, scales: make([]float32, n), norms: make([]float64, n), state: make([]byte, n)}
	if n > 0 && last.Valid {
		for r0 := int64(0); r0 <= last.Int64; r0 += int64(w.o.batch()) {
			if err := vw.batch(ctx, conn, model, r0, r0+int64(w.o.batch())-1); err != nil {
				return err
			}
		}
	}
	chOff, chunks, covered, err := vw.finish(ctx, conn)
	if err != nil {
		return err
	}
	scales, norms := vw.scales, vw.norms
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

// The state of a text's vector in vecWriter.state.
const (
	vecMissing = iota // not read (yet)
	vecWritten
	vecZero // all zero: not indexed
)

// vecWriter writes the full vectors, each at its text's number, and keeps
// what each needs besides.
type vecWriter struct {
	w      *writer
	start  int64 // the vec32 section's offset in the file
	scales []float32
	norms  []float64
	state  []byte // by text number
	buf    []byte
}

// batch writes the vectors of the rows lo..hi of embeddings.chunk_vectors
// (row ids) that are of model and of a searchable text.
func (v *vecWriter) batch(ctx context.Context, conn *sql.Conn, model string, lo, hi int64) error {
	w := v.w
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(`select s.vi, c.embedding
		from embeddings.chunk_vectors as c join temp.searchidx_vecs as s using (text_hash)
		where c.rowid between %d and %d and c.model = ? and c.embedding is not null`, lo, hi), model)
	if err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	defer rows.Close()
	var vi int64
	var emb []any
	for rows.Next() {
		if err := rows.Scan(&vi, &emb); err != nil {
			return fmt.Errorf("search index: reading embeddings.chunk_vectors (a FLOAT[n] embedding): %w", err)
		}
		if vi < 0 || vi >= int64(len(v.state)) {
			return fmt.Errorf("search index: embeddings.chunk_vectors changed while it was read")
		}
		if v.state[vi] != vecMissing {
			continue // one vector per text and model: this text's is taken
		}
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
		if n2 == 0 {
			// A zero vector's cosine distance is undefined (DuckDB
			// returns NaN); such a chunk is found by BM25 only.
			v.state[vi] = vecZero
			continue
		}
		v.state[vi] = vecWritten
		v.scales[vi] = maxAbs / 127
		v.norms[vi] = math.Sqrt(n2)
		if _, err := w.f.WriteAt(v.buf, v.start+vi*int64(len(v.buf))); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	return nil
}

// finish leaves out the zero vectors (moving the others up in the file),
// ends the vec32 section, and reads each vector's chunk ordinals: chOff
// (without its end), chunks, and how many chunks have a vector (zero or
// not).
func (v *vecWriter) finish(ctx context.Context, conn *sql.Conn) (chOff, chunks []uint32, covered int, err error) {
	w := v.w
	rowBytes := 4 * int64(w.h.Dims)
	kept := 0
	for i, st := range v.state {
		switch st {
		case vecMissing:
			return nil, nil, 0, fmt.Errorf("search index: embeddings.chunk_vectors changed while it was read")
		case vecWritten:
			if kept != i {
				b := make([]byte, rowBytes)
				if _, err := w.f.ReadAt(b, v.start+int64(i)*rowBytes); err != nil {
					return nil, nil, 0, err
				}
				if _, err := w.f.WriteAt(b, v.start+int64(kept)*rowBytes); err != nil {
					return nil, nil, 0, err
				}
				v.scales[kept], v.norms[kept] = v.scales[i], v.norms[i]
			}
			kept++
		}
	}
	v.scales, v.norms = v.scales[:kept], v.norms[:kept]
	end := v.start + int64(kept)*rowBytes
	if err := w.f.Truncate(end); err != nil {
		return nil, nil, 0, err
	}
	if _, err := w.f.Seek(end, io.SeekStart); err != nil {
		return nil, nil, 0, err
	}
	w.pos = end
	rows, err := conn.QueryContext(ctx, `select vi, ords from temp.searchidx_vecs order by vi`)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	defer rows.Close()
	chOff = make([]uint32, 0, kept+1)
	var vi int64
	var ords []any
	for rows.Next() {
		if err := rows.Scan(&vi, &ords); err != nil {
			return nil, nil, 0, fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
		}
		covered += len(ords)
		if vi < 0 || vi >= int64(len(v.state)) || v.state[vi] != vecWritten {
			continue
		}
		chOff = append(chOff, uint32(len(chunks)))
		for _, o := range ords {
			ord, ok := o.(uint64)
			if !ok {
				return nil, nil, 0, fmt.Errorf("search index: chunk ordinals of %T", o)
			}
			chunks = append(chunks, uint32(ord))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	return chOff, chunks, covered, nil
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
