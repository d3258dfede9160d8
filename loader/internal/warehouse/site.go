package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// This file reads what `docket docs generate` shows: the catalog of every
// relation, the current documents with what was extracted from them, and
// the pipeline's health per load run. Everything here is read-only.

// Relation is one table or view of the warehouse with its columns and row
// count.
type Relation struct {
	Schema, Name string
	Type         string // BASE TABLE | VIEW
	Comment      string
	Columns      []Column
	Rows         int64
	RowsErr      string // why the rows could not be counted (a view that fails)
}

// Column of a relation.
type Column struct {
	Name, Type string
	Index      int // 1-based
	Comment    string
}

// Relations lists every user table and view with columns and row counts.
func (w *DB) Relations(ctx context.Context) ([]Relation, error) {
	rows, err := w.sql.QueryContext(ctx, `
		select schema_name, table_name, 'BASE TABLE', coalesce(comment, '') from duckdb_tables()
		where not internal and not temporary and database_name = current_database()
		union all
		select schema_name, view_name, 'VIEW', coalesce(comment, '') from duckdb_views()
		where not internal and not temporary and database_name = current_database()
		order by 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("warehouse: relations: %w", err)
	}
	var rels []Relation
	idx := map[string]int{}
	for rows.Next() {
		var r Relation
		if err := rows.Scan(&r.Schema, &r.Name, &r.Type, &r.Comment); err != nil {
			rows.Close()
			return nil, err
		}
		idx[r.Schema+"."+r.Name] = len(rels)
		rels = append(rels, r)
	}
	rows.Close()
	crows, err := w.sql.QueryContext(ctx, `select schema_name, table_name, column_name, column_index, data_type, coalesce(comment, '')
		from duckdb_columns() where not internal and database_name = current_database() order by schema_name, table_name, column_index`)
	if err != nil {
		return nil, fmt.Errorf("warehouse: columns: %w", err)
	}
	for crows.Next() {
		var s, t string
		var c Column
		if err := crows.Scan(&s, &t, &c.Name, &c.Index, &c.Type, &c.Comment); err != nil {
			crows.Close()
			return nil, err
		}
		if i, ok := idx[s+"."+t]; ok {
			rels[i].Columns = append(rels[i].Columns, c)
		}
	}
	crows.Close()
	for i := range rels {
		r := &rels[i]
		q := fmt.Sprintf(`select count(*) from %s.%s`, quoteIdent(r.Schema), quoteIdent(r.Name))
		if err := w.sql.QueryRowContext(ctx, q).Scan(&r.Rows); err != nil {
			r.RowsErr = err.Error()
		}
	}
	return rels, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// hasRelation reports whether schema.name exists.
func (w *DB) hasRelation(ctx context.Context, schema, name string) bool {
	var n int
	err := w.sql.QueryRowContext(ctx, `select count(*) from information_schema.tables where table_schema = ? and table_name = ?`, schema, name).Scan(&n)
	return err == nil && n > 0
}

// SiteDoc is one current (not deleted) document with its figures.
type SiteDoc struct {
	DocID, SourceName, RelPath, SourceURI, SourceHash   string
	DetectedType, MIME, Status, ErrorKind, ErrorMessage string
	ParentDocID, Title, Warnings                        string
	Display                                             string // RelPath as a person reads it (document.DisplayPath)
	SizeBytes                                           int64
	Pages, OCRPages, ReviewPages                        int
	Chars                                               int64
	MeanOCRConfidence                                   *float64
	Verdict, VerdictReason                              string // curated.doc_quality, when built
	LastSeen                                            time.Time
}

// lastLoadsCTE is the last completed load of each source (last_loads:
// source_name, seen_at, run_id). A load writes only the documents it acts
// on; a document a completed load of its source left live was seen by it,
// so its last_seen_at is the later of its row's and that load's start (as
// models/staging/stg_documents.sql derives it).
const lastLoadsCTE = `last_loads as (
	select source_name, max(started_at) as seen_at, arg_max(run_id, started_at) as run_id
	from (select run_id, started_at, unnest(from_json(json_extract(options, '$.sources'), '["VARCHAR"]')) as source_name
		from ops.load_runs where status = 'completed')
	group by source_name
)`

// SiteDocuments lists the current documents, ordered by source and path.
func (w *DB) SiteDocuments(ctx context.Context) ([]SiteDoc, error) {
	quality := `null::varchar as verdict, null::varchar as reason`
	join := ""
	if w.hasRelation(ctx, "curated", "doc_quality") {
		quality = `q.verdict, q.reason`
		join = `left join curated.doc_quality q on q.doc_id = d.doc_id`
	}
	rows, err := w.sql.QueryContext(ctx, `
		with p as (
			select source_hash, count(*) as pages, sum(char_count) as chars,
				count(*) filter (where method = 'ocr') as ocr_pages,
				count(*) filter (where review_reason is not null) as review_pages,
				avg(ocr_confidence) filter (where method = 'ocr') as conf
			from staging.pages group by source_hash
		), `+lastLoadsCTE+`
		select d.doc_id, d.source_name, d.rel_path, d.source_uri, coalesce(d.source_hash, ''),
			coalesce(d.detected_type, ''), coalesce(d.mime_type, ''), d.status, coalesce(d.error_kind, ''), coalesce(d.error_message, ''),
			coalesce(d.parent_doc_id, ''), coalesce(d.title, ''), coalesce(array_to_string(d.warnings, chr(10)), ''),
			coalesce(d.size_bytes, 0),
			case when d.status = 'landed' then coalesce(p.pages, 0) else 0 end,
			case when d.status = 'landed' then coalesce(p.ocr_pages, 0) else 0 end,
			case when d.status = 'landed' then coalesce(p.review_pages, 0) else 0 end,
			case when d.status = 'landed' then coalesce(p.chars, 0) else 0 end::bigint,
			case when d.status = 'landed' then p.conf end,
			`+quality+`, greatest(d.last_seen_at, coalesce(ll.seen_at, d.last_seen_at))
		from raw.documents d
		left join p on p.source_hash = d.source_hash
		left join last_loads ll on ll.source_name = d.source_name
		`+join+`
		where d.status <> 'deleted'
		order by d.source_name, d.rel_path`)
	if err != nil {
		return nil, fmt.Errorf("warehouse: documents: %w", err)
	}
	defer rows.Close()
	var out []SiteDoc
	for rows.Next() {
		var d SiteDoc
		var verdict, reason sql.NullString
		var conf sql.NullFloat64
		if err := rows.Scan(&d.DocID, &d.SourceName, &d.RelPath, &d.SourceURI, &d.SourceHash, &d.DetectedType, &d.MIME,
			&d.Status, &d.ErrorKind, &d.ErrorMessage, &d.ParentDocID, &d.Title, &d.Warnings, &d.SizeBytes,
			&d.Pages, &d.OCRPages, &d.ReviewPages, &d.Chars, &conf, &verdict, &reason, &d.LastSeen); err != nil {
			return nil, err
		}
		d.Verdict, d.VerdictReason = verdict.String, reason.String
		if conf.Valid {
			d.MeanOCRConfidence = &conf.Float64
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	byID := make(map[string]*SiteDoc, len(out))
	for i := range out {
		byID[out[i].DocID] = &out[i]
	}
	lookup := func(id string) (string, string, bool) {
		if d := byID[id]; d != nil {
			return d.RelPath, d.ParentDocID, true
		}
		return "", "", false
	}
	for i := range out {
		out[i].Display = document.DisplayPathOf(out[i].DocID, lookup)
	}
	return out, nil
}

// Box is a rectangle in PDF points (top-left origin); Valid is false when
// the element has no position (text formats).
type Box struct {
	X0, Y0, X1, Y1 float64
	Valid          bool
}

// SitePage is one extracted page of a content.
type SitePage struct {
	Number         int
	Text           string
	Width, Height  float64
	Method         string
	OCRConfidence  *float64
	ReviewReason   string
	TextLayerChars int
}

// SiteElement is one typed element of a page.
type SiteElement struct {
	Seq, Page          int
	Category, Text     string
	Box                Box
	CharStart, CharEnd int
	Level              int
	Section            string
	TableSeq           int // -1: not part of a table
}

// SiteWord is one OCR word.
type SiteWord struct {
	Page       int
	Text       string
	Box        Box
	Confidence float64
}

// SiteTable is one detected table.
type SiteTable struct {
	Seq, Page int
	Box       Box
	Header    []string
	Cells     [][]string
}

// SiteChunk is one chunk of curated.doc_chunks (offsets into its page).
type SiteChunk struct {
	ChunkID          string
	Page             int
	CharOffset, End  int
	Section          string
	ElementsCategory string
}

// SiteDuplicate links a document to another one sharing (near-)duplicate
// chunks.
type SiteDuplicate struct {
	OtherDocID    string
	Kind          string // exact | near
	Chunks        int
	MaxSimilarity float64
}

// Content is everything extracted from one content hash, plus the chunks
// and duplicates of the documents carrying it.
type Content struct {
	Pages      []SitePage
	Elements   []SiteElement
	Words      []SiteWord
	Tables     []SiteTable
	Chunks     map[string][]SiteChunk     // by doc_id
	Duplicates map[string][]SiteDuplicate // by doc_id
}

// SiteContents reads pages, elements, OCR words, tables, chunks and
// duplicates of the given content hashes (of the given documents).
func (w *DB) SiteContents(ctx context.Context, hashes, docIDs []string) (map[string]*Content, error) {
	out := map[string]*Content{}
	get := func(h string) *Content {
		c := out[h]
		if c == nil {
			c = &Content{Chunks: map[string][]SiteChunk{}, Duplicates: map[string][]SiteDuplicate{}}
			out[h] = c
		}
		return c
	}
	for _, h := range hashes {
		get(h)
	}
	hs, err := hexList(hashes)
	if err != nil || len(hashes) == 0 {
		return out, err
	}
	if err := w.each(ctx, `select source_hash, page_number, text, coalesce(width, 0), coalesce(height, 0), method, ocr_confidence,
			coalesce(review_reason, ''), coalesce(text_layer_chars, 0)
		from staging.pages where source_hash in `+hs+` order by source_hash, page_number`, func(r *sql.Rows) error {
		var h string
		var p SitePage
		var conf sql.NullFloat64
		if err := r.Scan(&h, &p.Number, &p.Text, &p.Width, &p.Height, &p.Method, &conf, &p.ReviewReason, &p.TextLayerChars); err != nil {
			return err
		}
		if conf.Valid {
			p.OCRConfidence = &conf.Float64
		}
		get(h).Pages = append(get(h).Pages, p)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warehouse: pages: %w", err)
	}
	if err := w.each(ctx, `select source_hash, seq, page_number, category, text, x0, y0, x1, y1, char_start, char_end,
			coalesce(level, 0), coalesce(section, ''), coalesce(table_seq, -1)
		from staging.elements where source_hash in `+hs+` order by source_hash, seq`, func(r *sql.Rows) error {
		var h string
		var e SiteElement
		var b nullBox
		if err := r.Scan(&h, &e.Seq, &e.Page, &e.Category, &e.Text, &b.x0, &b.y0, &b.x1, &b.y1, &e.CharStart, &e.CharEnd,
			&e.Level, &e.Section, &e.TableSeq); err != nil {
			return err
		}
		e.Box = b.box()
		get(h).Elements = append(get(h).Elements, e)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warehouse: elements: %w", err)
	}
	if err := w.each(ctx, `select source_hash, page_number, text, x0, y0, x1, y1, coalesce(confidence, 0)
		from staging.ocr_words where source_hash in `+hs+` order by source_hash, page_number, seq`, func(r *sql.Rows) error {
		var h string
		var wd SiteWord
		var b nullBox
		if err := r.Scan(&h, &wd.Page, &wd.Text, &b.x0, &b.y0, &b.x1, &b.y1, &wd.Confidence); err != nil {
			return err
		}
		wd.Box = b.box()
		get(h).Words = append(get(h).Words, wd)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warehouse: ocr words: %w", err)
	}
	if err := w.each(ctx, `select source_hash, table_seq, page_number, x0, y0, x1, y1,
			coalesce(to_json(header), '[]')::varchar, coalesce(to_json(cells), '[]')::varchar
		from staging.tables where source_hash in `+hs+` order by source_hash, table_seq`, func(r *sql.Rows) error {
		var h, header, cells string
		var t SiteTable
		var b nullBox
		if err := r.Scan(&h, &t.Seq, &t.Page, &b.x0, &b.y0, &b.x1, &b.y1, &header, &cells); err != nil {
			return err
		}
		t.Box = b.box()
		if err := json.Unmarshal([]byte(header), &t.Header); err != nil {
			return fmt.Errorf("table header: %w", err)
		}
		if err := json.Unmarshal([]byte(cells), &t.Cells); err != nil {
			return fmt.Errorf("table cells: %w", err)
		}
		get(h).Tables = append(get(h).Tables, t)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warehouse: tables: %w", err)
	}
	ids, err := hexList(docIDs)
	if err != nil || len(docIDs) == 0 || !w.hasRelation(ctx, "curated", "doc_chunks") {
		return out, err
	}
	if err := w.each(ctx, `select source_hash, doc_id, chunk_id, page_number, char_offset, char_end, coalesce(section_title, ''),
			coalesce(array_to_string(element_categories, ','), '')
		from curated.doc_chunks where doc_id in `+ids+` order by doc_id, page_number, char_offset`, func(r *sql.Rows) error {
		var h, doc string
		var c SiteChunk
		if err := r.Scan(&h, &doc, &c.ChunkID, &c.Page, &c.CharOffset, &c.End, &c.Section, &c.ElementsCategory); err != nil {
			return err
		}
		if cc := out[h]; cc != nil {
			cc.Chunks[doc] = append(cc.Chunks[doc], c)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("warehouse: chunks: %w", err)
	}
	if !w.hasRelation(ctx, "curated", "chunk_duplicates") {
		return out, nil
	}
	err = w.each(ctx, `
		with pairs as (
			select a.doc_id as doc, a.source_hash as h, b.doc_id as other, d.kind, d.similarity
			from curated.chunk_duplicates d
			join curated.doc_chunks a on a.chunk_id = d.chunk_id
			join curated.doc_chunks b on b.chunk_id = d.duplicate_of
			union all
			select b.doc_id, b.source_hash, a.doc_id, d.kind, d.similarity
			from curated.chunk_duplicates d
			join curated.doc_chunks a on a.chunk_id = d.chunk_id
			join curated.doc_chunks b on b.chunk_id = d.duplicate_of
		)
		select h, doc, other, kind, count(*), coalesce(max(similarity), 1)
		from pairs where doc in `+ids+` and doc <> other
		group by all order by doc, count(*) desc, other`, func(r *sql.Rows) error {
		var h, doc string
		var d SiteDuplicate
		if err := r.Scan(&h, &doc, &d.OtherDocID, &d.Kind, &d.Chunks, &d.MaxSimilarity); err != nil {
			return err
		}
		if cc := out[h]; cc != nil {
			cc.Duplicates[doc] = append(cc.Duplicates[doc], d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("warehouse: duplicates: %w", err)
	}
	return out, nil
}

type nullBox struct{ x0, y0, x1, y1 sql.NullFloat64 }

func (b nullBox) box() Box {
	if !b.x0.Valid || !b.y0.Valid || !b.x1.Valid || !b.y1.Valid {
		return Box{}
	}
	return Box{X0: b.x0.Float64, Y0: b.y0.Float64, X1: b.x1.Float64, Y1: b.y1.Float64, Valid: true}
}

// hexList renders ids (hex digests) as an SQL list literal; anything else
// is refused, so the literal cannot carry SQL.
func hexList(ids []string) (string, error) {
	var b strings.Builder
	b.WriteByte('(')
	for i, id := range ids {
		for _, c := range id {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return "", fmt.Errorf("warehouse: %q is not a hex id", id)
			}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("'" + id + "'")
	}
	if len(ids) == 0 {
		b.WriteString("null")
	}
	b.WriteByte(')')
	return b.String(), nil
}

func (w *DB) each(ctx context.Context, q string, fn func(*sql.Rows) error) error {
	rows, err := w.sql.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// DescribeExternal lists the columns of an external location a source
// reads (dbt-duckdb's meta.external_location: read_csv('data/x.csv'), a
// file path), as DuckDB describes `select * from` it; no rows are counted.
func (w *DB) DescribeExternal(ctx context.Context, from string) ([]Column, error) {
	var cols []Column
	err := w.each(ctx, "describe select * from "+from, func(rows *sql.Rows) error {
		// describe's columns: column_name, column_type, null, key, default, extra
		var name, typ string
		var rest [4]sql.NullString
		if err := rows.Scan(&name, &typ, &rest[0], &rest[1], &rest[2], &rest[3]); err != nil {
			return err
		}
		cols = append(cols, Column{Name: name, Type: typ, Index: len(cols) + 1})
		return nil
	})
	return cols, err
}
