package text

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// Markdown, Org and reStructuredText land as the text a reader sees, not
// their source: headings are Titles, list items ListItems, code blocks
// their code, pipe/grid tables Tables, emphasis its words, a link its text
// (its URL in the metadata, Extra "links"), an image its alt text (its
// source in Extra "images"), a footnote reference "[1]" with the note at
// the end, front matter / #+TITLE / an RST field list the metadata. They
// landed as their source markup ("**bold**", "[text](url)", front matter
// as a Title, ":PROPERTIES:" drawers), without a word. markdown.go reads
// Markdown with goldmark, org.go Org with go-org, rst.go is a small reader
// of reStructuredText's common constructs.

// markupDoc is a converted markup document.
type markupDoc struct {
	blocks   []block
	meta     document.Metadata
	extra    map[string]string
	links    []string
	images   []string
	seen     map[string]bool
	warnings []string
	shown    map[string]string // front matter fields a reader shows: see shownFields
}

// shownFields are the front matter / field list fields a site or a reader
// shows with the text (a post's description under its title, its tags):
// they land as text after the title, in this order, as well as in Extra;
// text/13 put them in Extra only, where no chunk or search reads them.
var shownFields = []struct{ key, label string }{
	{"subtitle", ""}, {"description", ""}, {"summary", ""}, {"abstract", ""}, {"excerpt", ""},
	{"tags", "Tags: "}, {"categories", "Categories: "}, {"keywords", "Keywords: "},
}

// isShownField says whether a field's key is one of shownFields.
func isShownField(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	for _, f := range shownFields {
		if f.key == k {
			return true
		}
	}
	return false
}

// maxLinks bounds the URLs kept in the metadata per kind.
const maxLinks = 500

func (d *markupDoc) add(cat document.Category, text string, level int) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	d.blocks = append(d.blocks, block{cat: cat, text: text, level: level})
}

// addTable adds a table: the element's text is its rows, cells joined by
// " | " (as HTML's tables land).
func (d *markupDoc) addTable(header []string, rows [][]string) {
	if len(header) == 0 && len(rows) == 0 {
		return
	}
	var lines []string
	if len(header) > 0 {
		lines = append(lines, strings.Join(header, " | "))
	}
	for _, r := range rows {
		lines = append(lines, strings.Join(r, " | "))
	}
	d.blocks = append(d.blocks, block{cat: document.TableCat, text: strings.Join(lines, "\n"),
		table: &document.Table{Header: header, Rows: rows}})
}

// link records a link's URL (image: an image's source).
func (d *markupDoc) link(url string, image bool) {
	url = strings.TrimSpace(url)
	if url == "" || strings.HasPrefix(url, "#") {
		return
	}
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	key := fmt.Sprint(image, url)
	if d.seen[key] {
		return
	}
	d.seen[key] = true
	if image && len(d.images) < maxLinks {
		d.images = append(d.images, url)
	} else if !image && len(d.links) < maxLinks {
		d.links = append(d.links, url)
	}
}

func (d *markupDoc) setExtra(k, v string) {
	if v = strings.TrimSpace(v); v == "" {
		return
	}
	if d.extra == nil {
		d.extra = map[string]string{}
	}
	d.extra[k] = v
}

// apply puts the document into res: page text, elements, tables, metadata.
func (d *markupDoc) apply(res *document.Result) string {
	s, els, tables := assembleBlocks(d.blocks)
	res.Elements, res.Tables = els, tables
	res.Warnings = append(res.Warnings, d.warnings...)
	m := d.meta
	if m.Title == "" && len(els) > 0 && els[0].Category == document.Title {
		m.Title = els[0].Text
	}
	res.Metadata.Title, res.Metadata.Author = m.Title, m.Author
	res.Metadata.Created, res.Metadata.Language = m.Created, m.Language
	d.setExtra("links", strings.Join(d.links, "\n"))
	d.setExtra("images", strings.Join(d.images, "\n"))
	for k, v := range d.extra {
		if res.Metadata.Extra == nil {
			res.Metadata.Extra = map[string]string{}
		}
		res.Metadata.Extra[k] = v
	}
	return s
}

// fieldMeta fills the metadata from a front matter's or a field list's
// field: title, author(s), date, language; the others go to Extra under
// their lower-case name (description, keywords, tags, ...).
func (d *markupDoc) fieldMeta(key string, val any) {
	v := metaString(val)
	if v == "" {
		return
	}
	switch k := strings.ToLower(strings.TrimSpace(key)); k {
	case "title":
		d.meta.Title = v
	case "author", "authors":
		d.meta.Author = v
	case "date", "created":
		d.meta.Created = metaDate(v)
	case "lang", "language":
		d.meta.Language = v
	default:
		if len(k) <= 40 {
			d.setExtra(k, v)
		}
		for _, f := range shownFields {
			if f.key == k {
				if d.shown == nil {
					d.shown = map[string]string{}
				}
				d.shown[k] = f.label + v
			}
		}
	}
}

// metaString is a front matter value as text: a list joined with ", ".
func metaString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(t)
	case time.Time:
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
			return t.Format("2006-01-02")
		}
		return t.Format(time.RFC3339)
	case []any:
		var parts []string
		for _, x := range t {
			if s := metaString(x); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		if n, ok := t["name"]; ok { // authors: [{name: ..., affiliation: ...}]
			return metaString(n)
		}
		b, _ := json.Marshal(t)
		return string(b)
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// metaDate is a date as RFC 3339 when it parses, else as found.
func metaDate(v string) string {
	for _, f := range []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(f, v); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	return v
}

// fieldKey is what front matter keys look like (title, og:image,
// date-published, _build): a note opening with a "---" rule and a line
// "... not front matter: Quentin signs it." parses as YAML too, its key a
// sentence.
var fieldKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]*$`)

var frontMatterEnd = regexp.MustCompile(`(?m)^(---|\.\.\.)[ \t]*\r?$`)

var tomlFrontMatterEnd = regexp.MustCompile(`(?m)^\+\+\+[ \t]*\r?$`)

// frontMatter splits a leading YAML front matter ("---" lines around it,
// as Jekyll, Hugo and pandoc write) or TOML one ("+++" lines, Hugo's
// default) off s and reads it into d's metadata;
// the whole front matter also lands as JSON in Extra "front_matter". What
// is not YAML (a "---" rule opening the text) is left in s.
func (d *markupDoc) frontMatter(s string) string {
	isTOML := strings.HasPrefix(s, "+++\n") || strings.HasPrefix(s, "+++\r\n")
	if !isTOML && !strings.HasPrefix(s, "---\n") && !strings.HasPrefix(s, "---\r\n") {
		return s
	}
	body := s[strings.IndexByte(s, '\n')+1:]
	end := frontMatterEnd
	if isTOML {
		end = tomlFrontMatterEnd
	}
	loc := end.FindStringIndex(body)
	if loc == nil || loc[0] > 64<<10 {
		return s
	}
	var fm map[string]any
	if isTOML {
		// Hugo's default front matter, "+++" lines around TOML: it landed
		// as source lines in the page text, its title not taken
		if _, err := toml.Decode(body[:loc[0]], &fm); err != nil || len(fm) == 0 {
			return s
		}
	} else if yamlDuplicateKey(body[:loc[0]]) {
		// yaml.v3 refuses a mapping's repeated key too, after formatting
		// an error for every pair of them: a front matter repeating one
		// key 4,000 times (32 KB) cost 16 s and 3.9 GB (review45)
		return s
	} else if err := yaml.Unmarshal([]byte(body[:loc[0]]), &fm); err != nil || len(fm) == 0 {
		return s
	}
	for k := range fm {
		if !fieldKey.MatchString(k) { // a sentence with ": " under a rule, not YAML fields
			return s
		}
	}
	for k, v := range fm {
		d.fieldMeta(k, v)
	}
	if b, err := json.Marshal(jsonable(fm)); err == nil {
		d.setExtra("front_matter", string(b))
	}
	rest := body[loc[1]:]
	return strings.TrimPrefix(strings.TrimPrefix(rest, "\r"), "\n")
}

// yamlDuplicateKey says whether a YAML block mapping in y repeats a key
// (a line "key:" at the indent of another of the same mapping: no line
// less indented between them), which yaml.v3 refuses; a block scalar's
// lines ("key: |") are no keys.
func yamlDuplicateKey(y string) bool {
	seen := map[int]map[string]bool{}
	scalar := -1 // the indent of the key whose block scalar is being skipped
	for _, l := range strings.Split(y, "\n") {
		t := strings.TrimLeft(l, " ")
		ind := len(l) - len(t)
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if scalar >= 0 && ind > scalar {
			continue
		}
		scalar = -1
		for k := range seen {
			if k > ind {
				delete(seen, k)
			}
		}
		m := yamlKeyLine.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		if seen[ind] == nil {
			seen[ind] = map[string]bool{}
		}
		if seen[ind][m[1]] {
			return true
		}
		seen[ind][m[1]] = true
		if v := strings.TrimSpace(m[2]); strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
			scalar = ind
		}
	}
	return false
}

var yamlKeyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?\r?$`)

// jsonable turns YAML's map[any]any (a mapping with non-string keys) into
// what encoding/json takes.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonable(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fmt.Sprint(k)] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonable(x)
		}
		return out
	}
	return v
}

// titleBlock puts the metadata title first as the document's Title, when
// the markup gives one outside its body (front matter, #+TITLE, an RST
// document title): its words are in the page text, as a reader sees them
// on top of the rendered document.
//
// The fields a reader shows with the text (shownFields) follow the title
// as paragraphs.
func (d *markupDoc) titleBlock() {
	var head []block
	rest := d.blocks
	if d.meta.Title != "" {
		if len(rest) > 0 && rest[0].cat == document.Title && rest[0].text == d.meta.Title {
			rest = rest[1:]
		}
		head = append(head, block{cat: document.Title, text: d.meta.Title, level: 1})
	}
	for _, f := range shownFields {
		if v := d.shown[f.key]; v != "" {
			head = append(head, block{cat: document.NarrativeText, text: v})
		}
	}
	if len(head) > 0 {
		d.blocks = append(head, rest...)
	}
}

// readMarkup converts a Markdown, Org or reStructuredText source; an
// error says the reader gave up (the caller lands the source as it is).
func readMarkup(s, typ string) (d *markupDoc, err error) {
	defer func() {
		// a reader's bug on some input (go-org's writer panics on a node
		// it does not know) lands the source, warned, not a crash
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("reader failed: %v", p)
		}
	}()
	switch typ {
	case detect.Org:
		return readOrg(s)
	case detect.RST:
		return readRST(s), nil
	}
	if depth, cost := quoteNesting(s); cost > maxQuoteCost {
		return nil, fmt.Errorf("block quotes nested %d deep: goldmark's time grows with the square of the depth", depth)
	}
	return readMarkdown(s), nil
}

// maxQuoteCost bounds the sum over a Markdown file's lines of their block
// quote depth squared: goldmark opens each level of a line's quotes by
// reading the line again (review45: one line of 262,144 ">" cost 21.6 s;
// 4,000 levels ~17 ms). A mail thread quoted 40 deep over 2,000 lines is
// 3.2M.
const maxQuoteCost = 16 << 20

// quoteNesting is the deepest block quote of s's lines (">" markers,
// each after up to three spaces) and the sum of their depths squared.
func quoteNesting(s string) (deepest, cost int) {
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		d := 0
		for {
			t := strings.TrimLeft(line, " ")
			if len(line)-len(t) > 3 || !strings.HasPrefix(t, ">") {
				break
			}
			line = t[1:]
			d++
		}
		deepest = max(deepest, d)
		cost += d * d
	}
	return deepest, cost
}
