package searchidx

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"
)

// CompactFraction bounds a delta: when the chunks it adds plus the base
// chunks it retracts exceed this fraction of the base's chunks, Update
// refuses (ErrRebuild) and the caller builds a new base, which folds the
// delta in. Queries read both segments, so a small delta costs them
// little.
const CompactFraction = 0.10

// ErrRebuild is returned by Update when the index cannot be updated (no
// base of this format, other model or BM25 parameters, a delta past
// CompactFraction, totals that disagree with the warehouse): Build it.
var ErrRebuild = errors.New("search index: a full build is needed")

// Update brings the index at path up to date with the warehouse conn reads
// by writing a delta segment beside the base (path + ".delta") instead of
// rebuilding: the searchable chunks whose row hash (their citation, text,
// length, whether they have a vector) differs from the base's, or that
// the base does not have, are read from the warehouse with their postings
// and vectors; the base chunks no longer searchable as they are are
// retracted (a bitmap, with the retracted postings per term, so document
// frequencies stay exact). A search reads both segments and answers as a
// full build would. The delta holds every change since the base was built
// (the previous delta is replaced), so its cost grows with the change, and
// past CompactFraction Update returns ErrRebuild. Like Build, it leaves
// the index unbound.
func Update(ctx context.Context, conn *sql.Conn, path string, o BuildOptions) (Stats, error) {
	o, err := o.normalized()
	if err != nil {
		return Stats{}, err
	}
	base, err := openSegment(path)
	if err != nil {
		return Stats{}, fmt.Errorf("%w: %v", ErrRebuild, err)
	}
	defer base.close()
	bh := &base.h
	if bh.Base != "" || bh.Model != o.Model || bh.K1 != o.K1 || bh.B != o.B || bh.Chunks == 0 {
		return Stats{}, fmt.Errorf("%w: the base index was built for other settings", ErrRebuild)
	}
	if err := fillVectorHashes(ctx, conn, o.Model); err != nil {
		return Stats{}, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists `+vecTable)
	now, err := scanChunks(ctx, conn, o.Model)
	if err != nil {
		return Stats{}, err
	}
	// Merge the warehouse's chunks (key order) with the base's.
	words := func(n int) int { return (n + 63) / 64 }
	alive := make([]uint64, words(bh.Chunks))
	var want []uint64
	pb := 0
	for i, key := range now.keys {
		for pb < bh.Chunks && base.keys[pb] < key {
			pb++
		}
		if pb < bh.Chunks && base.keys[pb] == key && base.rowHash[pb] == now.hash[i] {
			alive[pb>>6] |= 1 << (pb & 63)
			continue
		}
		want = append(want, key)
	}
	dead := make([]uint64, len(alive))
	nDead := 0
	var deadLen int64
	for o := range bh.Chunks {
		if alive[o>>6]&(1<<(o&63)) == 0 {
			dead[o>>6] |= 1 << (o & 63)
			nDead++
			deadLen += int64(base.docLen[o])
		}
	}
	if float64(len(want)+nDead) > CompactFraction*float64(bh.Chunks) {
		return Stats{}, fmt.Errorf("%w: %d chunks added and %d retracted since the base of %d was built", ErrRebuild, len(want), nDead, bh.Chunks)
	}
	if err := fillKeys(ctx, conn, want); err != nil {
		return Stats{}, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists `+keysTable)
	w, err := newWriter(deltaPath(path), o)
	if err != nil {
		return Stats{}, err
	}
	defer w.abort()
	w.h.Base = bh.Content
	defer dropOrds(ctx, conn)
	if err := w.ordsTable(ctx, conn, true); err != nil {
		return Stats{}, err
	}
	if err := w.chunks(ctx, conn, true); err != nil {
		return Stats{}, err
	}
	if err := w.postings(ctx, conn, true); err != nil {
		return Stats{}, err
	}
	if o.Model != "" {
		if err := w.vectors(ctx, conn, o.Model); err != nil {
			return Stats{}, err
		}
	}
	if w.h.Chunks != len(want) {
		return Stats{}, fmt.Errorf("%w: the delta read %d chunks of %d", ErrRebuild, w.h.Chunks, len(want))
	}
	if w.h.Vectors > 0 && bh.Vectors > 0 && w.h.Dims != bh.Dims {
		return Stats{}, fmt.Errorf("%w: vectors of %d dimensions, the base's have %d", ErrRebuild, w.h.Dims, bh.Dims)
	}
	// Retractions: chunks, vectors none of whose chunks is live, and the
	// postings per term.
	deadVec := make([]uint64, words(bh.Vectors))
	for j := range bh.Vectors {
		all := true
		from, to := base.vecChOff[j], base.vecChOff[j+1]
		if from > to || int(to) > len(base.vecCh) {
			return Stats{}, fmt.Errorf("%w: damaged vector chunk lists", ErrRebuild)
		}
		for _, o := range base.vecCh[from:to] {
			if int(o) >= bh.Chunks {
				return Stats{}, fmt.Errorf("%w: damaged vector chunk lists", ErrRebuild)
			}
			if dead[o>>6]&(1<<(o&63)) == 0 {
				all = false
				break
			}
		}
		if all {
			deadVec[j>>6] |= 1 << (j & 63)
		}
	}
	var rmTerm, rmCount []uint32
	var rmPostings int64
	if nDead > 0 {
		for t := range bh.Terms {
			p := base.postings[base.postOff[t]:base.postOff[t+1]]
			ord, n := uint64(0), uint32(0)
			for len(p) > 0 {
				d, m := binary.Uvarint(p)
				if m <= 0 {
					return Stats{}, fmt.Errorf("%w: damaged postings", ErrRebuild)
				}
				p = p[m:]
				_, m = binary.Uvarint(p)
				if m <= 0 {
					return Stats{}, fmt.Errorf("%w: damaged postings", ErrRebuild)
				}
				p = p[m:]
				ord += d
				if ord >= uint64(bh.Chunks) {
					return Stats{}, fmt.Errorf("%w: damaged postings", ErrRebuild)
				}
				if dead[ord>>6]&(1<<(ord&63)) != 0 {
					n++
				}
			}
			if n > 0 {
				rmTerm, rmCount = append(rmTerm, uint32(t)), append(rmCount, n)
				rmPostings += int64(n)
			}
		}
	}
	w.h.LiveChunks = len(now.keys)
	w.h.LiveSumDocLength = now.sumDocLength
	w.h.LivePostings = bh.Postings - rmPostings + w.h.Postings
	w.h.LiveWithoutVector = now.withoutVector
	// The totals must be what the warehouse has: anything else (postings
	// of chunks that are not searchable, say) needs the full build's
	// checks.
	var postings int64
	if err := conn.QueryRowContext(ctx, `select count(*) from retrieval.chunk_terms`).Scan(&postings); err != nil {
		return Stats{}, fmt.Errorf("search index: reading retrieval.chunk_terms: %w", err)
	}
	if postings != w.h.LivePostings || bh.SumDocLength-deadLen+w.h.SumDocLength != now.sumDocLength ||
		bh.Chunks-nDead+w.h.Chunks != len(now.keys) {
		return Stats{}, fmt.Errorf("%w: base and delta disagree with the warehouse", ErrRebuild)
	}
	for _, s := range []struct {
		name string
		b    []byte
	}{{secDead, u64s(dead)}, {secDeadVec, u64s(deadVec)}, {secRmTerm, u32s(rmTerm)}, {secRmCount, u32s(rmCount)}} {
		if err := w.section(s.name, s.b); err != nil {
			return Stats{}, err
		}
	}
	os.Remove(bindingPath(path))
	if err := w.finish(deltaPath(path)); err != nil {
		return Stats{}, err
	}
	vectors := bh.Vectors + w.h.Vectors
	for _, x := range deadVec {
		vectors -= bits.OnesCount64(x)
	}
	return Stats{Chunks: len(now.keys), Terms: liveTerms(base, rmTerm, rmCount, w.terms), Vectors: vectors, Postings: w.h.LivePostings,
		Bytes: w.pos, Delta: true, DeltaChunks: w.h.Chunks, Retracted: nDead}, nil
}

// current is what Update reads of every searchable chunk.
type current struct {
	keys, hash    []uint64 // key order
	sumDocLength  int64
	withoutVector int
}

// scanChunks reads every searchable chunk's key and row hash (no text).
func scanChunks(ctx context.Context, conn *sql.Conn, model string) (current, error) {
	hasVec, args := hasVectorSQL(model, true)
	isTable, err := IsTableSQL(ctx, conn)
	if err != nil {
		return current{}, err
	}
	rows, err := conn.QueryContext(ctx, `select chunk_key, doc_length, `+rowHashSQL(isTable)+`, `+hasVec+`,
		case when contains(rel_path, '#') then doc_id else '' end, case when contains(rel_path, '#') then rel_path else '' end
		from retrieval.search_chunks order by chunk_key`, args...)
	if err != nil {
		return current{}, searchChunksErr(err)
	}
	defer rows.Close()
	var c current
	type attach struct {
		i         int
		sqlHash   uint64
		hasVec    bool
		doc, path string
	}
	var attached []attach
	docs := map[string]string{}
	var key, h uint64
	var dl int64
	var hv bool
	var doc, path string
	for rows.Next() {
		if err := rows.Scan(&key, &dl, &h, &hv, &doc, &path); err != nil {
			return current{}, searchChunksErr(err)
		}
		if n := len(c.keys); n > 0 && c.keys[n-1] == key {
			return current{}, fmt.Errorf("search index: chunk_key %d is not unique in retrieval.search_chunks", key)
		}
		if path != "" {
			attached = append(attached, attach{len(c.keys), h, hv, doc, path})
			docs[doc] = path
		}
		c.keys = append(c.keys, key)
		c.hash = append(c.hash, rowHash(h, hv, path, ""))
		c.sumDocLength += dl
		if !hv {
			c.withoutVector++
		}
	}
	if err := rows.Err(); err != nil {
		return current{}, searchChunksErr(err)
	}
	if len(attached) > 0 {
		display := DisplayPaths(ctx, conn, docs)
		for _, a := range attached {
			c.hash[a.i] = rowHash(a.sqlHash, a.hasVec, a.path, display[a.doc])
		}
	}
	return c, nil
}

// fillKeys writes keys into the temporary keys table.
func fillKeys(ctx context.Context, conn *sql.Conn, keys []uint64) error {
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_keys (chunk_key ubigint)`); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	// Keys as literals: database/sql refuses uint64 arguments with the
	// high bit set.
	for start := 0; start < len(keys); start += 4096 {
		var b strings.Builder
		b.WriteString(`insert into ` + keysTable + ` values `)
		for i, k := range keys[start:min(start+4096, len(keys))] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('(')
			b.WriteString(strconv.FormatUint(k, 10))
			b.WriteByte(')')
		}
		if _, err := conn.ExecContext(ctx, b.String()); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	return nil
}

// liveTerms counts the distinct terms with a live posting: the base's
// whose postings were not all retracted, and the delta's terms that are
// not among those (a term in both segments counts once).
func liveTerms(base *segment, rmTerm, rmCount []uint32, delta []string) int {
	left := func(t int) int64 {
		n := int64(base.df[t])
		if i, ok := slices.BinarySearch(rmTerm, uint32(t)); ok {
			n -= int64(rmCount[i])
		}
		return n
	}
	n := 0
	for t := range base.h.Terms {
		if left(t) > 0 {
			n++
		}
	}
	for _, t := range delta {
		if b := base.term(t); b < 0 || left(b) == 0 {
			n++
		}
	}
	return n
}
