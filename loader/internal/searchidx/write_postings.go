package searchidx

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
)

// DefaultBatchPostings is how many postings one statement of a build
// reads at most (BuildOptions.BatchPostings; a term with more postings is
// read alone). DuckDB's driver holds a statement's whole result before
// the first row is read: at 200k documents one sorted statement of every
// posting (100.7M) peaked at 2 GB RSS under a 256MB memory_limit.
const DefaultBatchPostings = 4_000_000

func (o BuildOptions) postingsBatch() int64 {
	if o.BatchPostings > 0 {
		return int64(o.BatchPostings)
	}
	return DefaultBatchPostings
}

// termRanges cuts the term ids 0..len(df)-1 into consecutive ranges
// [lo, hi] of at most max postings each (a term of more alone).
func termRanges(df []uint32, max int64) [][2]int {
	var out [][2]int
	lo, sum := 0, int64(0)
	for t, n := range df {
		if t > lo && sum+int64(n) > max {
			out = append(out, [2]int{lo, t - 1})
			lo, sum = t, 0
		}
		sum += int64(n)
	}
	if lo < len(df) {
		out = append(out, [2]int{lo, len(df) - 1})
	}
	return out
}

// postings writes the BM25 postings of retrieval.chunk_terms grouped by
// term, terms ascending, each term's chunks ascending. DuckDB numbers the
// terms and chunks and sorts the postings a range of terms a statement
// (BuildOptions.BatchPostings postings at most; the document frequencies
// say where to cut), so neither DuckDB's result nor this process holds
// more than a range's postings. chunk_terms is written in term order per
// batch of chunks, so a range's statement reads mostly its terms' row
// groups.
func (w *writer) postings(ctx context.Context, conn *sql.Conn, only bool) error {
	// A delta's postings are read from chunk_terms once (a scan of its
	// every chunk_key), then from that copy.
	from := "retrieval.chunk_terms"
	if only {
		if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_post as
			select term, chunk_key, tf from retrieval.chunk_terms `+onlyKeys(only, "where")); err != nil {
			return chunkTermsErr(err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists temp.searchidx_post`)
		from = "temp.searchidx_post"
	}
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_terms as
		 select term, (row_number() over (order by term) - 1)::ubigint as tid, df
		 from (select term, count(*) as df from `+from+` group by term)`); err != nil {
		return chunkTermsErr(err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists temp.searchidx_terms`)
	terms, df, err := readTerms(ctx, conn)
	if err != nil {
		return err
	}
	w.h.Terms = len(terms)
	w.terms = terms
	pw := &postWriter{w: w, df: df, cur: -1, postOff: make([]uint64, 0, len(terms)+1), buf: w.scratch[:0]}
	if err := w.begin(); err != nil {
		return err
	}
	for _, r := range termRanges(df, w.o.postingsBatch()) {
		if err := pw.batch(ctx, conn, from, r[0], r[1]); err != nil {
			return err
		}
	}
	if err := pw.flush(); err != nil {
		return err
	}
	if err := pw.advance(len(terms)); err != nil {
		return err
	}
	postOff := append(pw.postOff, pw.off)
	w.scratch = pw.buf
	w.end(secPostings)
	// terms
	if err := w.begin(); err != nil {
		return err
	}
	termOff := make([]uint64, 0, len(terms)+1)
	off := uint64(0)
	for _, t := range terms {
		termOff = append(termOff, off)
		if err := w.write([]byte(t)); err != nil {
			return err
		}
		off += uint64(len(t))
	}
	termOff = append(termOff, off)
	w.end(secTerms)
	for _, s := range []struct {
		name string
		b    []byte
	}{{secTermOff, u64s(termOff)}, {secPostOff, u64s(postOff)}, {secDF, u32s(df)}} {
		if err := w.section(s.name, s.b); err != nil {
			return err
		}
	}
	return nil
}

// readTerms reads temp.searchidx_terms: the terms in id (byte) order and
// their document frequencies.
func readTerms(ctx context.Context, conn *sql.Conn) ([]string, []uint32, error) {
	var terms []string
	var df []uint32
	rows, err := conn.QueryContext(ctx, `select term, df from temp.searchidx_terms order by tid`)
	if err != nil {
		return nil, nil, chunkTermsErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return nil, nil, chunkTermsErr(err)
		}
		if k := len(terms); k > 0 && terms[k-1] >= t {
			return nil, nil, fmt.Errorf("search index: terms %q and %q are not in byte order", terms[k-1], t)
		}
		terms = append(terms, t)
		df = append(df, uint32(n))
	}
	if err := rows.Err(); err != nil {
		return nil, nil, chunkTermsErr(err)
	}
	if len(terms) >= 1<<31 {
		return nil, nil, fmt.Errorf("search index: %d terms", len(terms))
	}
	return terms, df, nil
}

// postWriter writes the postings section from sorted streams of (term id
// << 32 | chunk ordinal, tf), one per range of terms, in term order.
type postWriter struct {
	w       *writer
	df      []uint32
	postOff []uint64
	off     uint64
	cur     int    // the term being written
	n, prev uint32 // its postings so far, its last chunk ordinal
	buf     []byte
}

// chunkTermsErr is an error reading retrieval.chunk_terms (or its copy).
func chunkTermsErr(err error) error {
	return fmt.Errorf("search index: reading retrieval.chunk_terms: %w", err)
}

// sqlString is s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// batch writes the postings of the terms with ids lo..hi. The term bounds
// are literals, not parameters, so DuckDB skips the row groups of other
// terms.
func (p *postWriter) batch(ctx context.Context, conn *sql.Conn, from string, lo, hi int) error {
	w := p.w
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(`select (t.tid << 32) | o.ord as k, p.tf
		from %s as p
		join (select term, tid from temp.searchidx_terms where tid between %d and %d) as t using (term)
		join temp.searchidx_ords as o using (chunk_key)
		where p.term between %s and %s
		order by k`, from, lo, hi, sqlString(w.terms[lo]), sqlString(w.terms[hi])))
	if err != nil {
		return chunkTermsErr(err)
	}
	defer rows.Close()
	var k uint64
	var tf int64
	for rows.Next() {
		if err := rows.Scan(&k, &tf); err != nil {
			return chunkTermsErr(err)
		}
		tid, ord := int(k>>32), uint32(k)
		if tid < lo || tid > hi || tid < p.cur {
			return fmt.Errorf("search index: postings of term id %d read among terms %d..%d", tid, lo, hi)
		}
		if tid != p.cur {
			if err := p.flush(); err != nil {
				return err
			}
			if err := p.advance(tid); err != nil {
				return err
			}
			p.cur++
			p.postOff = append(p.postOff, p.off)
			p.n, p.prev = 0, 0
		} else if ord == p.prev {
			return fmt.Errorf("search index: retrieval.chunk_terms has two postings of term %q in chunk %d", w.terms[tid], w.keys[ord])
		}
		if tf < 1 || tf > math.MaxUint32 {
			return fmt.Errorf("search index: chunk_key %d: tf %d out of range", w.keys[ord], tf)
		}
		p.buf = appendUvarint(p.buf, uint64(ord-p.prev))
		p.buf = appendUvarint(p.buf, uint64(tf))
		p.prev = ord
		p.n++
		w.h.Postings++
	}
	if err := rows.Err(); err != nil {
		return chunkTermsErr(err)
	}
	return nil
}

// flush checks the current term's count and writes its postings.
func (p *postWriter) flush() error {
	if p.cur >= 0 && p.n != p.df[p.cur] {
		return p.missing(p.cur)
	}
	if err := p.w.write(p.buf); err != nil {
		return err
	}
	p.off += uint64(len(p.buf))
	p.buf = p.buf[:0]
	return nil
}

// advance passes the terms after the current one up to (not including)
// tid: every term has a posting, so each of them is an error.
func (p *postWriter) advance(tid int) error {
	for p.cur+1 < tid {
		p.cur++
		p.postOff = append(p.postOff, p.off)
		if p.df[p.cur] != 0 {
			return p.missing(p.cur)
		}
	}
	return nil
}

func (p *postWriter) missing(t int) error {
	return fmt.Errorf("search index: retrieval.chunk_terms has postings of term %q of chunks that retrieval.search_chunks does not have", p.w.terms[t])
}

func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}
