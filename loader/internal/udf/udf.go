// Package udf declares docket's Go UDFs: thin adapters that turn DuckDB
// row values into calls of the pure functions in textproc and embed. It
// takes the project's settings and produces []warehouse.UDF for the
// runner's registry; models that call these must be tables, never views.
package udf

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/textproc"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Version of the adapters; bump when a UDF's output changes for the same input.
const Version = "1"

// chunkElementsVersion is chunk_elements' own: 2 (session 46) chunks Table
// elements, which 1 left out.
const chunkElementsVersion = "2"

// All returns every UDF. provider may be nil (no embed UDF).
func All(provider embed.Provider) []warehouse.UDF {
	u := []warehouse.UDF{
		{Name: "normalize_text", Params: []string{"VARCHAR"}, Result: "VARCHAR", Version: Version,
			Doc: "NFKC, zero-width and control characters removed, hyphenation across line breaks rejoined, whitespace collapsed; idempotent",
			Fn:  func(_ context.Context, a []driver.Value) (any, error) { return textproc.NormalizeText(str(a[0])), nil }},
		{Name: "chunk_text", Params: []string{"VARCHAR", "INTEGER", "INTEGER"}, Result: chunkType, Version: Version,
			Doc: "recursive paragraph/sentence/word chunks up to size normalized characters with overlap; offsets are 0-based code points into the input",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				return chunks(textproc.ChunkText(str(a[0]), num(a[1]), num(a[2]), nil)), nil
			}},
		{Name: "chunk_text", Params: []string{"VARCHAR", "INTEGER", "INTEGER", "INTEGER[]"}, Result: chunkType, Version: Version,
			Doc: "chunk_text with code point offsets no chunk may cross",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				return chunks(textproc.ChunkText(str(a[0]), num(a[1]), num(a[2]), ints(a[3]))), nil
			}},
		{Name: "chunk_elements", Params: []string{"VARCHAR", "INTEGER", "INTEGER", elementsType}, Result: elementChunkType, Version: chunkElementsVersion,
			Doc: "structure-aware chunks of a page: only the given elements' spans, never across a Title-started section; a table is chunked on its own, between rows",
			Fn:  chunkElements},
		{Name: "minhash", Params: []string{"VARCHAR", "INTEGER", "INTEGER"}, Result: "UBIGINT[]", Version: Version,
			Doc: "MinHash signature over k-word shingles of the normalized, lower-cased text",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				return u64s(textproc.MinHash(str(a[0]), num(a[1]), num(a[2]))), nil
			}},
		{Name: "lsh_band_keys", Params: []string{"UBIGINT[]", "INTEGER"}, Result: "VARCHAR[]", Version: Version,
			Doc: "LSH band keys of a MinHash signature (each key includes its band index)",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				keys := textproc.LSHBandKeys(fromU64s(a[0]), num(a[1]))
				out := make([]any, len(keys))
				for i, k := range keys {
					out[i] = k
				}
				return out, nil
			}},
		{Name: "jaccard_estimate", Params: []string{"UBIGINT[]", "UBIGINT[]"}, Result: "DOUBLE", Version: Version,
			Doc: "estimated Jaccard similarity of two MinHash signatures",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				return textproc.EstimateJaccard(fromU64s(a[0]), fromU64s(a[1])), nil
			}},
		{Name: "detect_language", Params: []string{"VARCHAR"}, Result: "STRUCT(lang VARCHAR, confidence DOUBLE)", Version: Version,
			Doc: "ISO 639-3 language code and confidence 0..1 ('und' when unsure)",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				l, c := textproc.DetectLanguage(str(a[0]))
				return map[string]any{"lang": l, "confidence": c}, nil
			}},
		{Name: "text_stats", Params: []string{"VARCHAR"}, Result: statsType, Version: Version,
			Doc: "quality statistics: chars, non-whitespace ratio, lines, unique line ratio, words, mean word length, symbol ratio, duplicate 5-gram share",
			Fn: func(_ context.Context, a []driver.Value) (any, error) {
				s := textproc.Stats(str(a[0]), nil)
				return map[string]any{"chars": int64(s.Chars), "non_whitespace_ratio": s.NonWhitespaceRatio, "lines": int32(s.Lines),
					"unique_line_ratio": s.UniqueLineRatio, "words": int32(s.Words), "mean_word_length": s.MeanWordLength,
					"symbol_ratio": s.SymbolRatio, "dup_ngram_share": s.DupNgramShare}, nil
			}},
	}
	if provider != nil {
		u = append(u, embedUDF(provider))
	}
	u = append(u, tableUDFs()...)
	sort.SliceStable(u, func(i, j int) bool { return u[i].Name < u[j].Name })
	return u
}

const (
	chunkType        = "STRUCT(char_offset INTEGER, char_end INTEGER, text VARCHAR)[]"
	elementsType     = "STRUCT(char_start INTEGER, char_end INTEGER, category VARCHAR, section VARCHAR)[]"
	elementChunkType = "STRUCT(char_offset INTEGER, char_end INTEGER, text VARCHAR, section VARCHAR, categories VARCHAR[])[]"
	statsType        = "STRUCT(chars BIGINT, non_whitespace_ratio DOUBLE, lines INTEGER, unique_line_ratio DOUBLE, words INTEGER, mean_word_length DOUBLE, symbol_ratio DOUBLE, dup_ngram_share DOUBLE)"
)

func str(v driver.Value) string {
	s, _ := v.(string)
	return s
}

func num(v driver.Value) int {
	switch n := v.(type) {
	case int32:
		return int(n)
	case int64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

func ints(v driver.Value) []int {
	l, _ := v.([]any)
	out := make([]int, 0, len(l))
	for _, x := range l {
		out = append(out, num(x))
	}
	return out
}

func u64s(s []uint64) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func fromU64s(v driver.Value) []uint64 {
	l, _ := v.([]any)
	out := make([]uint64, len(l))
	for i, x := range l {
		out[i], _ = x.(uint64)
	}
	return out
}

func chunks(cs []textproc.Chunk) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = map[string]any{"char_offset": int32(c.Start), "char_end": int32(c.End), "text": c.Text}
	}
	return out
}

// span is one element handed to chunk_elements.
type span struct {
	start, end        int
	category, section string
}

// Categories left out of chunk text: repeated page furniture and images.
var skipped = map[string]bool{"Header": true, "Footer": true, "PageNumber": true, "Image": true}

// chunkElements chunks a page's text within its elements' spans: a Title
// starts a new segment (chunks never cross a section start), skipped
// categories and the gaps they leave end a segment, a Table is a segment of
// its own chunked between rows (textproc.ChunkTable: never merged with
// narrative text, no overlap), and each chunk carries the section it is in
// and the categories it overlaps.
func chunkElements(_ context.Context, a []driver.Value) (any, error) {
	text := str(a[0])
	size, overlap := num(a[1]), num(a[2])
	list, _ := a[3].([]any)
	var spans []span
	for _, x := range list {
		m, _ := x.(map[string]any)
		if m == nil {
			continue
		}
		s := span{start: num(m["char_start"]), end: num(m["char_end"])}
		s.category, _ = m["category"].(string)
		s.section, _ = m["section"].(string)
		spans = append(spans, s)
	}
	runes := []rune(text)
	if len(spans) == 0 {
		// a page without elements (a long one-line text split into pages
		// by the loader): plain chunks, in chunk_elements' struct shape
		out := chunks(textproc.ChunkText(text, size, overlap, nil))
		for _, c := range out {
			m := c.(map[string]any)
			m["section"], m["categories"] = nil, []any{}
		}
		return out, nil
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var out []any
	// Build segments of consecutive kept elements.
	type segment struct {
		start, end int
		section    string
		members    []span
		table      bool
	}
	var segs []segment
	var cur *segment
	for _, s := range spans {
		if s.start < 0 || s.end > len(runes) || s.start >= s.end {
			continue
		}
		if skipped[s.category] {
			cur = nil
			continue
		}
		if s.category == "Table" {
			segs = append(segs, segment{start: s.start, end: s.end, section: s.section, members: []span{s}, table: true})
			cur = nil
			continue
		}
		if cur == nil || s.category == "Title" {
			segs = append(segs, segment{start: s.start, end: s.end, section: s.section})
			cur = &segs[len(segs)-1]
			if s.category == "Title" {
				cur.section = strings.TrimSpace(string(runes[s.start:s.end]))
			}
		}
		if s.end > cur.end {
			cur.end = s.end
		}
		cur.members = append(cur.members, s)
	}
	for _, sg := range segs {
		var cs []textproc.Chunk
		if sg.table {
			cs = textproc.ChunkTable(string(runes[sg.start:sg.end]), size)
		} else {
			cs = textproc.ChunkText(string(runes[sg.start:sg.end]), size, overlap, nil)
		}
		for _, c := range cs {
			start, end := sg.start+c.Start, sg.start+c.End
			cats := map[string]bool{}
			for _, m := range sg.members {
				if m.start < end && m.end > start {
					cats[m.category] = true
				}
			}
			names := make([]any, 0, len(cats))
			keys := make([]string, 0, len(cats))
			for k := range cats {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				names = append(names, k)
			}
			var section any
			if sg.section != "" {
				section = sg.section
			}
			out = append(out, map[string]any{"char_offset": int32(start), "char_end": int32(end), "text": c.Text,
				"section": section, "categories": names})
		}
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

func embedUDF(p embed.Provider) warehouse.UDF {
	return warehouse.UDF{Name: "embed", Params: []string{"VARCHAR"}, Result: fmt.Sprintf("FLOAT[%d]", p.Dimensions()), Version: Version + "/" + p.ModelID(),
		Doc: "embedding of the text with the configured provider (" + p.Name() + "), one provider call per DuckDB chunk",
		Batch: func(ctx context.Context, rows [][]driver.Value) ([]any, error) {
			texts := make([]string, len(rows))
			for i, r := range rows {
				texts[i] = str(r[0])
			}
			vecs, err := p.Embed(ctx, texts)
			if err != nil {
				return nil, err
			}
			out := make([]any, len(vecs))
			for i, v := range vecs {
				a := make([]any, len(v))
				for j, f := range v {
					a[j] = f
				}
				out[i] = a
			}
			return out, nil
		}}
}

func tableUDFs() []warehouse.UDF { return nil }
