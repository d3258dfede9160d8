package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
	"gopkg.in/yaml.v3"
)

// Mapping is a mapping that keeps its keys' order, as a Python dict does:
// a YAML mapping as dbt's yaml.safe_load hands it to templates (vars,
// --vars, --args), and a template's dict as PyValue gives it to code that
// prints it. Go maps have no order, so these printed and iterated sorted
// where dbt keeps the file's order. Templates see it as an ordered dict
// (TemplateValue); Go code reads Vals (StringKeyed).
type Mapping struct {
	Keys []string
	Vals map[string]any
}

// Set sets key k to v, as a Python dict does: a new key goes last, a key
// already there keeps its place.
func (m *Mapping) Set(k string, v any) {
	if _, dup := m.Vals[k]; !dup {
		m.Keys = append(m.Keys, k)
	}
	m.Vals[k] = v
}

// MarshalJSON writes its keys sorted, as the Go map it replaces wrote
// them (digests and artifacts do not change).
func (m *Mapping) MarshalJSON() ([]byte, error) { return json.Marshal(m.Vals) }

// DecodeYAML is the value of n as yaml.safe_load gives it, with each
// mapping of string keys a *Mapping in the file's order (any other
// mapping decodes as yaml.v3 decodes it).
func DecodeYAML(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return DecodeYAML(n.Content[0])
	case yaml.AliasNode:
		return DecodeYAML(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := DecodeYAML(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		if m, ok, err := decodeMapping(n); ok || err != nil {
			return m, err
		}
	}
	var v any
	err := n.Decode(&v)
	if t, ok := v.(time.Time); ok && err == nil {
		if !isPyYAMLTimestamp(n.Value) { // yaml.v3 reads 2024-1-2 as a date; PyYAML keeps the string
			return n.Value, nil
		}
		if msg := pyYAMLTimestampError(n.Value); msg != "" { // 0000-01-01: Go has a year 0, Python none
			return nil, fmt.Errorf("%q is a timestamp to PyYAML, whose safe_load raises ValueError: %s", n.Value, msg)
		}
		return yamlTime(t, n.Value), nil
	}
	if str, ok := v.(string); ok && err == nil && n.Kind == yaml.ScalarNode && n.Style == 0 && n.Tag == "!!str" {
		if t, ok := pyYAMLTimestamp(str); ok { // a form PyYAML reads as a timestamp and yaml.v3 does not
			return t, nil
		}
		if msg := pyYAMLTimestampError(str); msg != "" { // 2024-02-30: PyYAML's safe_load raises, a string it is not
			return nil, fmt.Errorf("%q is a timestamp to PyYAML, whose safe_load raises ValueError: %s", str, msg)
		}
	}
	return v, err
}

// yamlTime is a YAML timestamp as safe_load gives it: 2024-01-02 a
// datetime.date, a date and time with a zone (Z, +09:00) an aware
// datetime. A time.Time printed as Go prints it ("2024-01-02 00:00:00
// +0000 UTC": var('start_date') in SQL). A date and time without a zone
// is a naive datetime: NaiveDatetime's (the runner's), else a time.Time.
func yamlTime(t time.Time, text string) any {
	text = strings.TrimSpace(text)
	if len(text) <= len("2006-01-02") {
		return Date{t}
	}
	if strings.HasSuffix(text, "Z") || strings.HasSuffix(text, "z") {
		return Datetime{t.In(PyTimezoneUTC)}
	}
	if strings.ContainsAny(text[len("2006-01-02T00:00"):], "+-") {
		return Datetime{t}
	}
	if NaiveDatetime != nil {
		return NaiveDatetime(t)
	}
	return t
}

// NaiveDatetime is a naive datetime.datetime of wall time t as the runner
// has it (its modules.datetime value, set by the compiler package): a
// YAML `2024-01-02 10:20:30` prints 2024-01-02 10:20:30 and its repr is
// datetime.datetime(2024, 1, 2, 10, 20, 30), as PyYAML's safe_load gives
// it (it printed Go's "2024-01-02 10:20:30 +0000 UTC").
var NaiveDatetime func(t time.Time) any

// decodeMapping is n as a *Mapping; false when a key is not a string or
// n merges another mapping (<<), which yaml.v3 decodes.
func decodeMapping(n *yaml.Node) (*Mapping, bool, error) {
	m := &Mapping{Vals: map[string]any{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return nil, false, nil
		}
		var key any
		if err := k.Decode(&key); err != nil {
			return nil, false, err
		}
		s, ok := key.(string)
		if !ok {
			return nil, false, nil
		}
		v, err := DecodeYAML(n.Content[i+1])
		if err != nil {
			return nil, false, err
		}
		m.Set(s, v)
	}
	return m, true, nil
}

// DecodeYAMLMapping is text as a YAML mapping (a --vars or --args value)
// with its values as DecodeYAML gives them; an empty text is none.
func DecodeYAMLMapping(text string) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	v, err := DecodeYAML(&doc)
	if err != nil || v == nil {
		return nil, err
	}
	if m, ok := v.(*Mapping); ok {
		return m.Vals, nil
	}
	var out map[string]any
	return out, doc.Decode(&out) // not a mapping of string keys: yaml.v3's error, or its map
}

// TemplateValue is v as templates see it: a *Mapping, at any depth in
// lists, an ordered dict; any other value unchanged.
func TemplateValue(v any) any {
	t, _ := templateValue(v)
	return t
}

// templateValue is TemplateValue, and whether it differs from v.
func templateValue(v any) (any, bool) {
	switch x := v.(type) {
	case *Mapping:
		d := &exec.Dict{Pairs: make([]*exec.Pair, 0, len(x.Keys))}
		for _, k := range x.Keys {
			d.Pairs = append(d.Pairs, &exec.Pair{Key: exec.AsValue(k), Value: exec.AsValue(TemplateValue(x.Vals[k]))})
		}
		return d, true
	case []any:
		var out []any
		for i, e := range x {
			t, changed := templateValue(e)
			if changed && out == nil {
				out = append(make([]any, 0, len(x)), x[:i]...)
			}
			if out != nil {
				out = append(out, t)
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// decodeJSON is the next JSON value of d as json.loads gives it: an
// object a *Mapping in its key order, a number an int when it is one,
// else a float.
func decodeJSON(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Number:
		return PyNumbers(x), nil
	case json.Delim:
		if x == '[' {
			out := []any{}
			for d.More() {
				v, err := decodeJSON(d)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := d.Token()
			return out, err
		}
		m := &Mapping{Vals: map[string]any{}}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeJSON(d)
			if err != nil {
				return nil, err
			}
			m.Set(k, v)
		}
		_, err := d.Token()
		return m, err
	}
	return t, nil
}

// AsMapping is v as a *Mapping: a *Mapping itself, a Go map of string
// keys (or keys printed as strings) in sorted key order, as it printed
// before; false for any other value. Values are not copied.
func AsMapping(v any) (*Mapping, bool) {
	if m, ok := v.(*Mapping); ok {
		return m, m != nil
	}
	mp, ok := StringKeyed(v)
	if !ok {
		return nil, false
	}
	m := &Mapping{Vals: make(map[string]any, len(mp))}
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m.Set(k, mp[k])
	}
	return m, true
}

// Update is Python's dict.update: each key of o in o's order, a new key
// last, a key already there keeping its place with o's value.
func (m *Mapping) Update(o *Mapping) {
	for _, k := range o.Keys {
		m.Set(k, o.Vals[k])
	}
}

// Len is the number of keys (0 for a nil Mapping).
func (m *Mapping) Len() int {
	if m == nil {
		return 0
	}
	return len(m.Keys)
}

// OrderedJSON is a mapping encoding/json writes in keys' order, as
// Python's json.dumps writes a dict (manifest.json's meta, the graph);
// Mapping's own MarshalJSON stays sorted, for digests.
func OrderedJSON(keys []string, vals map[string]any) json.Marshaler {
	return orderedJSON{keys: keys, vals: vals}
}

// orderedJSON is a mapping JSON writes in keys' order.
type orderedJSON struct {
	keys []string
	vals map[string]any
}

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// DecodeJSON is data as Python's json.loads reads it: an object a
// *Mapping in its key order, a whole number an int (a *big.Int past
// int64), any other number a float64.
func DecodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return decodeJSON(d)
}

// MapOrderedJSON is o, an OrderedJSON mapping, with f applied to each
// value (the graph's round trip marks its dates so); false for any other
// value.
func MapOrderedJSON(o any, f func(any) any) (json.Marshaler, bool) {
	x, ok := o.(orderedJSON)
	if !ok {
		return nil, false
	}
	vals := make(map[string]any, len(x.vals))
	for k, e := range x.vals {
		vals[k] = f(e)
	}
	return orderedJSON{keys: x.keys, vals: vals}, true
}

// pyYAMLTimestampRe is PyYAML's timestamp resolver (resolver.py): a date,
// or a date and time with T, t or blanks between and an optional zone
// after optional blanks. yaml.v3 reads fewer forms: "2024-01-02
// 10:20:30+02:00" and "2024-1-2 1:20:30 Z" stayed strings.
var pyYAMLTimestampRe = regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$`)

// isPyYAMLTimestamp is whether PyYAML's resolver reads s as a timestamp:
// the regexp, a date alone with two-digit month and day (2024-1-2 is a
// string; with a time one digit is allowed), an offset's minutes after a
// colon only (10:20:30-0530 is a string).
func isPyYAMLTimestamp(s string) bool {
	m := pyYAMLTimestampRe.FindStringSubmatch(s)
	return m != nil && (m[4] != "" || (len(m[2]) == 2 && len(m[3]) == 2))
}

// ImpossibleTimestamp is the first plain scalar under n (a key or a
// value) that PyYAML resolves as a timestamp but whose parts name no real
// day or time (2024-02-30), with Python's ValueError words: safe_load
// raises there, so dbt reads no such file. nil when there is none.
func ImpossibleTimestamp(n *yaml.Node) (*yaml.Node, string) {
	if n == nil {
		return nil, ""
	}
	if n.Kind == yaml.ScalarNode {
		if n.Style == 0 && (n.Tag == "!!str" || n.Tag == "!!timestamp") {
			if msg := pyYAMLTimestampError(n.Value); msg != "" {
				return n, msg
			}
		}
		return nil, ""
	}
	for _, c := range n.Content {
		if bad, msg := ImpossibleTimestamp(c); bad != nil {
			return bad, msg
		}
	}
	return nil, ""
}

// pyYAMLTimestampError is the ValueError Python's datetime gives when
// PyYAML constructs the timestamp s whose parts name no real day or time
// (2024-02-30: "day is out of range for month"); "" when s is no such
// timestamp.
func pyYAMLTimestampError(s string) string {
	m := pyYAMLTimestampRe.FindStringSubmatch(s)
	if m == nil || !isPyYAMLTimestamp(s) {
		return ""
	}
	num := func(x string) int { i, _ := strconv.Atoi(x); return i }
	y, mo, d := num(m[1]), num(m[2]), num(m[3])
	switch {
	case y < 1:
		return fmt.Sprintf("year %d is out of range", y)
	case mo < 1 || mo > 12:
		return "month must be in 1..12"
	case d < 1 || d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day():
		return "day is out of range for month"
	case m[4] == "":
		return ""
	case num(m[4]) > 23:
		return "hour must be in 0..23"
	case num(m[5]) > 59:
		return "minute must be in 0..59"
	case num(m[6]) > 59:
		return "second must be in 0..59"
	}
	return ""
}

// pyYAMLTimestamp is s as PyYAML's construct_yaml_timestamp gives it (a
// date, a naive or an aware datetime); false when s is no timestamp to
// PyYAML or names no real day.
func pyYAMLTimestamp(s string) (any, bool) {
	m := pyYAMLTimestampRe.FindStringSubmatch(s)
	if m == nil || !isPyYAMLTimestamp(s) {
		return nil, false
	}
	num := func(x string) int { i, _ := strconv.Atoi(x); return i }
	y, mo, d := num(m[1]), num(m[2]), num(m[3])
	if m[4] == "" {
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
		if t.Day() != d || int(t.Month()) != mo {
			return nil, false
		}
		return Date{t}, true
	}
	frac := m[7]
	if len(frac) > 6 {
		frac = frac[:6] // PyYAML keeps microseconds
	}
	us := 0
	if frac != "" {
		us = num(frac + strings.Repeat("0", 6-len(frac)))
	}
	loc := PyTimezoneUTC
	if z := m[8]; z != "" && z != "Z" {
		sign := 1
		if z[0] == '-' {
			sign = -1
		}
		hm := strings.ReplaceAll(z[1:], ":", "")
		h, mi := 0, 0
		if len(hm) <= 2 {
			h = num(hm)
		} else {
			h, mi = num(hm[:len(hm)-2]), num(hm[len(hm)-2:])
		}
		loc = time.FixedZone("", sign*(h*3600+mi*60))
	}
	t := time.Date(y, time.Month(mo), d, num(m[4]), num(m[5]), num(m[6]), us*1000, loc)
	if t.Day() != d || t.Hour() != num(m[4]) || t.Minute() != num(m[5]) || t.Second() != num(m[6]) {
		return nil, false
	}
	if m[8] == "" {
		if NaiveDatetime != nil {
			return NaiveDatetime(t), true
		}
		return t, true
	}
	return Datetime{t}, true
}
