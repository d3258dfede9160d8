package searchidx

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// BuildOptions say what an index is built for.
type BuildOptions struct {
	Source  FileID // the published file the connection reads
	Content string // fingerprint of the tables read (the caller's; unique when unknown)
	Model   string // the embedding model whose vectors are indexed ("" = none)
	K1, B   string // BM25 parameters as decimal literals (the bm25_weight macro's), "1.2" and "0.75" by default

	// BatchChunks bounds the chunks one statement reads (0 =
	// DefaultBatchChunks); the index is the same for any value.
	BatchChunks int

	// BatchPostings bounds the postings one statement reads (0 =
	// DefaultBatchPostings; a term with more is read alone); the index is
	// the same for any value.
	BatchPostings int

	// Phase, when set, is called as each part of a build begins
	// ("chunks", "postings", "vectors") and when it ends ("done"): a
	// measuring aid (bench-searchidx prints each part's peak memory).
	Phase func(name string)
}

func (o BuildOptions) phase(name string) {
	if o.Phase != nil {
		o.Phase(name)
	}
}

// Stats describe a built index. After an Update they are the live
// totals of base and delta together, except Vectors, which counts the
// stored vectors of live chunks: a text with chunks in both segments has
// its vector in both.
type Stats struct {
	Chunks, Terms, Vectors int
	Postings, Bytes        int64

	// Update: the delta's chunks (added or changed since the base was
	// built) and the base chunks it retracts (removed or changed).
	Delta                  bool
	DeltaChunks, Retracted int
}

// Build writes the index of the warehouse that conn reads to path
// (atomically: a temporary file renamed over path), unbound: Bind makes
// Open use it (after the caller checked it). A delta beside it is removed.
func Build(ctx context.Context, conn *sql.Conn, path string, o BuildOptions) (Stats, error) {
	o, err := o.normalized()
	if err != nil {
		return Stats{}, err
	}
	w, err := newWriter(path, o)
	if err != nil {
		return Stats{}, err
	}
	defer w.abort()
	o.phase("chunks")
	defer dropOrds(ctx, conn)
	if err := w.ordsTable(ctx, conn, false); err != nil {
		return Stats{}, err
	}
	if err := w.chunks(ctx, conn, false); err != nil {
		return Stats{}, err
	}
	o.phase("postings")
	if err := w.postings(ctx, conn, false); err != nil {
		return Stats{}, err
	}
	if o.Model != "" {
		o.phase("vectors")
		if err := w.vectors(ctx, conn, o.Model); err != nil {
			return Stats{}, err
		}
	}
	defer o.phase("done")
	// The old binding goes first: between the renames no binding names
	// the new data with a file it was not built from.
	os.Remove(bindingPath(path))
	os.Remove(deltaPath(path))
	if err := w.finish(path); err != nil {
		return Stats{}, err
	}
	return Stats{Chunks: w.h.Chunks, Terms: w.h.Terms, Vectors: w.h.Vectors, Postings: w.h.Postings, Bytes: w.pos}, nil
}

func (o BuildOptions) normalized() (BuildOptions, error) {
	if o.K1 == "" {
		o.K1 = "1.2"
	}
	if o.B == "" {
		o.B = "0.75"
	}
	if _, err := decimal(o.K1); err != nil {
		return o, fmt.Errorf("search index: bm25_k1: %w", err)
	}
	if _, err := decimal(o.B); err != nil {
		return o, fmt.Errorf("search index: bm25_b: %w", err)
	}
	return o, nil
}

// newWriter starts an index file in a temporary file beside path.
func newWriter(path string, o BuildOptions) (*writer, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	w := &writer{f: tmp, bw: bufio.NewWriterSize(tmp, 1<<20), pos: headerSpace, o: o,
		h: header{Format: Format, Content: o.Content, K1: o.K1, B: o.B, Model: o.Model, Sections: map[string][2]int64{}}}
	if _, err := tmp.Seek(headerSpace, io.SeekStart); err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

// abort removes the temporary file unless finish renamed it.
func (w *writer) abort() {
	if w.f != nil {
		w.f.Close()
		os.Remove(w.f.Name())
		w.f = nil
	}
}

// finish writes the header and renames the file to path.
func (w *writer) finish(path string) error {
	if err := w.bw.Flush(); err != nil {
		return err
	}
	hb, err := json.Marshal(w.h)
	if err != nil {
		return err
	}
	if len(hb)+12 > headerSpace {
		return fmt.Errorf("search index: header too long")
	}
	head := make([]byte, 12, 12+len(hb))
	copy(head, magic)
	le.PutUint32(head[8:], uint32(len(hb)))
	if _, err := w.f.WriteAt(append(head, hb...), 0); err != nil {
		return err
	}
	if err := w.f.Chmod(0o644); err != nil {
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(w.f.Name(), path); err != nil {
		return err
	}
	w.f = nil
	return nil
}

type writer struct {
	f   *os.File
	bw  *bufio.Writer
	pos int64
	h   header

	o         BuildOptions
	keys      []uint64 // by ordinal
	rowHash   []uint64 // by ordinal
	terms     []string // the postings' terms, in byte order
	scratch   []byte
	sectStart int64
}

// begin starts a section at the next 64-byte boundary.
func (w *writer) begin() error {
	if pad := (64 - w.pos%64) % 64; pad > 0 {
		if _, err := w.bw.Write(make([]byte, pad)); err != nil {
			return err
		}
		w.pos += pad
	}
	w.sectStart = w.pos
	return nil
}

func (w *writer) write(b []byte) error {
	n, err := w.bw.Write(b)
	w.pos += int64(n)
	return err
}

func (w *writer) end(name string) { w.h.Sections[name] = [2]int64{w.sectStart, w.pos - w.sectStart} }

// section writes a whole section from a byte slice.
func (w *writer) section(name string, b []byte) error {
	if err := w.begin(); err != nil {
		return err
	}
	if err := w.write(b); err != nil {
		return err
	}
	w.end(name)
	return nil
}

func u64s(v []uint64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		le.PutUint64(b[8*i:], x)
	}
	return b
}

func u32s(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		le.PutUint32(b[4*i:], x)
	}
	return b
}

// DefaultBatchChunks is how many chunks' rows (citations with their text,
// vectors) one statement of a build reads (BuildOptions.BatchChunks): at
// 200k documents (1.16M chunks) one statement sorted every chunk's text,
// and the vectors' chunks were a map of every text in this process.
const DefaultBatchChunks = 100_000

func (o BuildOptions) batch() int {
	if o.BatchChunks > 0 {
		return o.BatchChunks
	}
	return DefaultBatchChunks
}

// ordsTable writes temp.searchidx_ords: every chunk the index is written
// for (only: the delta's), its ordinal (its rank by chunk_key), its
// text_hash and whether the model has a vector of that text; the later
// statements read the chunks a batch of ordinals at a time through it.
func (w *writer) ordsTable(ctx context.Context, conn *sql.Conn, only bool) error {
	hasVec, args := hasVectorSQL(w.h.Model, only)
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_ords as
		select chunk_key, (row_number() over (order by chunk_key) - 1)::ubigint as ord, text_hash, `+hasVec+` as has_vector
		from retrieval.search_chunks `+onlyKeys(only, "where")+` order by chunk_key`, args...); err != nil {
		return searchChunksErr(err)
	}
	return nil
}

func dropOrds(ctx context.Context, conn *sql.Conn) {
	conn.ExecContext(context.WithoutCancel(ctx), `drop table if exists temp.searchidx_ords`)
}

// chunks writes keys, lengths and citation records of every searchable
// chunk, in chunk_key order: the keys first (temp.searchidx_ords), then
// the citations a batch of keys at a time.
func (w *writer) chunks(ctx context.Context, conn *sql.Conn, only bool) error {
	var n int
	if err := conn.QueryRowContext(ctx, `select count(*) from temp.searchidx_ords`).Scan(&n); err != nil {
		return searchChunksErr(err)
	}
	w.keys = make([]uint64, 0, n)
	rows, err := conn.QueryContext(ctx, `select chunk_key from temp.searchidx_ords order by ord`)
	if err != nil {
		return searchChunksErr(err)
	}
	for rows.Next() {
		var key uint64
		if err := rows.Scan(&key); err != nil {
			rows.Close()
			return searchChunksErr(err)
		}
		if k := len(w.keys); k > 0 && w.keys[k-1] == key {
			rows.Close()
			return fmt.Errorf("search index: chunk_key %d is not unique in retrieval.search_chunks", key)
		}
		w.keys = append(w.keys, key)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return searchChunksErr(err)
	}
	display, err := chunkDisplayPaths(ctx, conn, only)
	if err != nil {
		return err
	}
	cs := citeSections{docLen: make([]uint32, 0, len(w.keys)), citeOff: make([]uint64, 1, len(w.keys)+1)}
	w.rowHash = make([]uint64, 0, len(w.keys))
	if err := w.begin(); err != nil {
		return err
	}
	for b0 := 0; b0 < len(w.keys); b0 += w.o.batch() {
		lo, hi := w.keys[b0], w.keys[min(b0+w.o.batch(), len(w.keys))-1]
		if err := w.chunkBatch(ctx, conn, [2]uint64{lo, hi}, display, &cs); err != nil {
			return err
		}
	}
	if len(cs.docLen) != len(w.keys) {
		return fmt.Errorf("search index: retrieval.search_chunks changed while it was read")
	}
	w.end(secCites)
	w.h.Chunks = len(w.keys)
	if err := w.section(secKeys, u64s(w.keys)); err != nil {
		return err
	}
	if err := w.section(secDocLen, u32s(cs.docLen)); err != nil {
		return err
	}
	if err := w.section(secRowHash, u64s(w.rowHash)); err != nil {
		return err
	}
	return w.section(secCiteOff, u64s(cs.citeOff))
}

// citeSections are the sections the citation records fill as they are
// written: each chunk's doc_length, and the end offset of each record
// (citeOff[0] = 0; off is the last).
type citeSections struct {
	docLen  []uint32
	citeOff []uint64
	off     uint64
}

// chunkBatch writes the citation records of the chunks with keys
// keys[0]..keys[1], adding to cs.
func (w *writer) chunkBatch(ctx context.Context, conn *sql.Conn, keys [2]uint64, display map[string]string, cs *citeSections) error {
	// keys are UBIGINTs past database/sql's int64 arguments
	between := fmt.Sprintf("between %d::ubigint and %d::ubigint", keys[0], keys[1])
	isTable, err := IsTableSQL(ctx, conn)
	if err != nil {
		return err
	}
	rows, err := conn.QueryContext(ctx, `select s.chunk_key, doc_length, chunk_id, doc_id, rel_path, source_uri,
		coalesce(title, ''), page_number, char_offset, char_end, coalesce(section_title, ''), text,
		`+isTable+`, `+rowHashSQL(isTable)+`, o.has_vector
		from retrieval.search_chunks as s
		join (select chunk_key, has_vector from temp.searchidx_ords where chunk_key `+between+`) as o using (chunk_key)
		where s.chunk_key `+between+` order by s.chunk_key`)
	if err != nil {
		return searchChunksErr(err)
	}
	defer rows.Close()
	var c Cite
	var key uint64
	var dl int64
	var sqlHash uint64
	var hasVector bool
	for rows.Next() {
		if err := rows.Scan(&key, &dl, &c.ChunkID, &c.DocID, &c.Path, &c.URI, &c.Title, &c.Page, &c.CharOffset, &c.CharEnd, &c.Section, &c.Text, &c.Table, &sqlHash, &hasVector); err != nil {
			return searchChunksErr(err)
		}
		if i := len(cs.docLen); i >= len(w.keys) || w.keys[i] != key {
			return fmt.Errorf("search index: retrieval.search_chunks changed while it was read (chunk_key %d)", key)
		}
		if dl < 0 || dl > math.MaxUint32 {
			return fmt.Errorf("search index: chunk_key %d: doc_length %d out of range", key, dl)
		}
		cs.docLen = append(cs.docLen, uint32(dl))
		w.h.SumDocLength += dl
		if d, ok := display[c.DocID]; ok {
			c.DisplayPath = d
		} else {
			c.DisplayPath = document.DisplayPath(c.Path, nil)
		}
		w.rowHash = append(w.rowHash, rowHash(sqlHash, hasVector, c.Path, c.DisplayPath))
		w.scratch = encodeCite(w.scratch[:0], &c)
		if err := w.write(w.scratch); err != nil {
			return err
		}
		cs.off += uint64(len(w.scratch))
		cs.citeOff = append(cs.citeOff, cs.off)
	}
	if err := rows.Err(); err != nil {
		return searchChunksErr(err)
	}
	return nil
}

// chunkDisplayPaths is the display path of the searchable chunks'
// attachments (DisplayPaths; a path with '#'): any other document's is its
// path (document.DisplayPath with no ancestors).
func chunkDisplayPaths(ctx context.Context, conn *sql.Conn, only bool) (map[string]string, error) {
	cond := "where contains(rel_path, '#')"
	if only {
		cond += " and " + strings.TrimPrefix(onlyKeys(only, "where"), "where ")
	}
	rows, err := conn.QueryContext(ctx, `select distinct doc_id, rel_path from retrieval.search_chunks `+cond)
	if err != nil {
		return nil, searchChunksErr(err)
	}
	defer rows.Close()
	docs := map[string]string{}
	for rows.Next() {
		var id, path string
		if err := rows.Scan(&id, &path); err != nil {
			return nil, err
		}
		docs[id] = path
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return DisplayPaths(ctx, conn, docs), nil
}

// Bind binds the index data at path to the published file source, if the
// data's content fingerprint is content.
func Bind(path string, source FileID, content string) error {
	if c := Content(path); c != content || content == "" {
		return fmt.Errorf("%w: built from other tables", ErrStale)
	}
	b, err := json.Marshal(binding{Format: Format, Source: source, Content: content})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tmp.Chmod(0o644)
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), bindingPath(path))
}

// Remove deletes the index at path, its delta and its binding.
func Remove(path string) {
	os.Remove(bindingPath(path))
	os.Remove(deltaPath(path))
	os.Remove(path)
}

// searchChunksErr is an error reading retrieval.search_chunks.
func searchChunksErr(err error) error {
	return fmt.Errorf("search index: reading retrieval.search_chunks: %w", err)
}
