package compiler

import (
	"fmt"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// FreshnessTime is one threshold: count periods.
type FreshnessTime struct {
	Count  *int    `json:"count"`
	Period *string `json:"period"`
}

// Duration is the threshold as a time.Duration (0 when unset).
func (t *FreshnessTime) Duration() time.Duration {
	if t == nil || t.Count == nil || t.Period == nil {
		return 0
	}
	unit := map[string]time.Duration{"minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}[*t.Period]
	return time.Duration(*t.Count) * unit
}

func (t *FreshnessTime) String() string {
	if t.Duration() == 0 {
		return "-"
	}
	s := fmt.Sprintf("%d %s", *t.Count, *t.Period)
	if *t.Count != 1 {
		s += "s"
	}
	return s
}

// Freshness is a source table's freshness criteria (dbt's
// FreshnessThreshold).
type Freshness struct {
	WarnAfter  *FreshnessTime `json:"warn_after"`
	ErrorAfter *FreshnessTime `json:"error_after"`
	Filter     *string        `json:"filter"`
}

// active reports whether any threshold is set.
func (f *Freshness) active() bool {
	return f != nil && (f.WarnAfter.Duration() > 0 || f.ErrorAfter.Duration() > 0)
}

// readFreshness sets a source table's freshness and loaded_at_field from
// its source entry and its own entry (the table's win; `freshness: null`
// on a table turns it off), both also accepted under config:.
func (m *Manifest) readFreshness(path string, n *Node, src, tbl *yaml.Node, diags *[]Diagnostic) {
	var f *Freshness
	for _, level := range []*yaml.Node{src, yget(src, "config"), tbl, yget(tbl, "config")} {
		if level == nil {
			continue
		}
		if v := ystr(level, "loaded_at_field"); v != "" {
			n.LoadedAtField = v
		}
		fv := yget(level, "freshness")
		if fv == nil {
			continue
		}
		if fv.Tag == "!!null" {
			f = nil
			continue
		}
		f = parseFreshness(path, fv, f, diags)
	}
	if f.active() {
		n.Freshness = f
	}
}

func parseFreshness(path string, fv *yaml.Node, inherit *Freshness, diags *[]Diagnostic) *Freshness {
	bad := func(at *yaml.Node, format string, a ...any) {
		p := ypos(at)
		*diags = append(*diags, Diagnostic{Path: path, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, a...)})
	}
	out := &Freshness{}
	if inherit != nil {
		*out = *inherit
	}
	if fv.Kind != yaml.MappingNode {
		bad(fv, "freshness must be a mapping with warn_after and/or error_after (got %q)", fv.Value)
		return out
	}
	for i := 0; i+1 < len(fv.Content); i += 2 {
		k, v := fv.Content[i], fv.Content[i+1]
		switch k.Value {
		case "warn_after", "error_after":
			var t *FreshnessTime
			if v.Tag != "!!null" {
				t = &FreshnessTime{}
				before := len(*diags)
				for j := 0; j+1 < len(v.Content); j += 2 {
					tk, tv := v.Content[j], v.Content[j+1]
					switch tk.Value {
					case "count":
						c, err := strconv.Atoi(tv.Value)
						if err != nil || c <= 0 {
							bad(tv, "freshness %s.count must be a positive whole number (got %q)", k.Value, tv.Value)
							continue
						}
						t.Count = &c
					case "period":
						p := tv.Value
						switch p {
						case "minute", "hour", "day":
							t.Period = &p
						default:
							bad(tv, "freshness %s.period must be minute, hour or day (got %q)", k.Value, p)
						}
					default:
						bad(tk, "unknown key %q in freshness %s (expected count and period)", tk.Value, k.Value)
					}
				}
				if len(*diags) == before && (t.Count == nil) != (t.Period == nil) {
					bad(v, "freshness %s needs both count and period", k.Value)
				}
			}
			if k.Value == "warn_after" {
				out.WarnAfter = t
			} else {
				out.ErrorAfter = t
			}
		case "filter":
			s := v.Value
			out.Filter = &s
		default:
			bad(k, "unknown key %q in freshness (expected warn_after, error_after or filter)", k.Value)
		}
	}
	return out
}

// FreshnessSources are the selected source ids that declare freshness.
func (m *Manifest) FreshnessSources(ids []string) []*Node {
	var out []*Node
	for _, id := range ids {
		if n := m.Sources[id]; n != nil && n.Freshness != nil {
			out = append(out, n)
		}
	}
	return out
}
