package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Source freshness, as dbt has it: a source table declares
// freshness.warn_after / error_after (count + minute|hour|day) and a
// loaded_at_field; `docket source freshness` compares the newest
// loaded_at with the clock. Sources the loader owns need no
// loaded_at_field: their load time is the end of the last completed
// `docket load` (ops.load_runs).

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
		*diags = append(*diags, Diagnostic{Path: path, Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, a...)})
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

// Freshness statuses (dbt's).
const (
	FreshPass  = "pass"
	FreshWarn  = "warn"
	FreshError = "error"
	FreshRTE   = "runtime error"
)

// FreshnessResult is one source table's check; its JSON is one result of
// dbt's sources.json (v3).
type FreshnessResult struct {
	UniqueID        string         `json:"unique_id"`
	MaxLoadedAt     string         `json:"max_loaded_at,omitempty"`
	SnapshottedAt   string         `json:"snapshotted_at,omitempty"`
	AgeSeconds      *float64       `json:"max_loaded_at_time_ago_in_s,omitempty"`
	Status          string         `json:"status"`
	Error           *string        `json:"error,omitempty"`
	Criteria        *Freshness     `json:"criteria,omitempty"`
	AdapterResponse map[string]any `json:"adapter_response"`
	Timing          []Timing       `json:"timing,omitempty"`
	ThreadID        string         `json:"thread_id,omitempty"`
	ExecutionTime   *float64       `json:"execution_time,omitempty"`

	// For printing, not in sources.json.
	Source   string        `json:"-"` // source_name.table
	Age      time.Duration `json:"-"`
	FromLoad bool          `json:"-"` // max_loaded_at is docket's last completed load
}

// FreshnessOptions configure CheckFreshness.
type FreshnessOptions struct {
	Now func() time.Time // the clock (tests freeze it); time.Now when nil
	// LaterLoad: when the latest completed load that the database read
	// does not record finished (the read copy's stamp lists loads that
	// found nothing new and were not published); zero when none.
	LaterLoad time.Time
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

// CheckFreshness measures each source's newest load time against its
// criteria. A source whose query fails gets status "runtime error" with
// the reason; the others are still checked.
func CheckFreshness(ctx context.Context, db Querier, sources []*Node, o FreshnessOptions) []FreshnessResult {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	var out []FreshnessResult
	for _, n := range sources {
		start := now()
		r := FreshnessResult{UniqueID: n.UniqueID, Source: n.SourceName + "." + n.Name}
		loaded, fromLoad, err := maxLoadedAt(ctx, db, n)
		if fromLoad && o.LaterLoad.After(loaded) {
			loaded, err = o.LaterLoad, nil
		}
		snap := now()
		if err != nil {
			msg := err.Error()
			r.Status, r.Error = FreshRTE, &msg
			out = append(out, r)
			continue
		}
		age := snap.Sub(loaded)
		secs := math.Round(age.Seconds()*1000) / 1000
		exec := snap.Sub(start).Seconds()
		r.MaxLoadedAt, r.SnapshottedAt = isoTime(loaded), isoTime(snap)
		r.AgeSeconds, r.Age, r.FromLoad = &secs, age, fromLoad
		r.Criteria = n.Freshness
		r.Status = FreshPass
		if d := n.Freshness.WarnAfter.Duration(); d > 0 && age > d {
			r.Status = FreshWarn
		}
		if d := n.Freshness.ErrorAfter.Duration(); d > 0 && age > d {
			r.Status = FreshError
		}
		r.AdapterResponse = map[string]any{}
		r.Timing = []Timing{{Name: "execute", StartedAt: start.UTC(), CompletedAt: snap.UTC()}}
		r.ThreadID = "Thread-1"
		r.ExecutionTime = &exec
		out = append(out, r)
	}
	return out
}

// MarshalJSON writes a runtime error with only the keys dbt's
// SourceFreshnessRuntimeError allows.
func (r FreshnessResult) MarshalJSON() ([]byte, error) {
	if r.Status == FreshRTE {
		return json.Marshal(struct {
			UniqueID string  `json:"unique_id"`
			Error    *string `json:"error"`
			Status   string  `json:"status"`
		}{r.UniqueID, r.Error, r.Status})
	}
	type plain FreshnessResult
	p := plain(r)
	if p.AdapterResponse == nil {
		p.AdapterResponse = map[string]any{}
	}
	return json.Marshal(p)
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// maxLoadedAt is max(loaded_at_field) of the source (with its filter), or
// for a loader-owned source without one, when the last completed load
// finished.
func maxLoadedAt(ctx context.Context, db Querier, n *Node) (time.Time, bool, error) {
	var q string
	fromLoad := false
	switch {
	case n.LoadedAtField != "":
		q = fmt.Sprintf("select max(%s)::timestamptz from %s", n.LoadedAtField, n.Relation)
		if n.Freshness.Filter != nil && strings.TrimSpace(*n.Freshness.Filter) != "" {
			q += " where " + *n.Freshness.Filter
		}
	case n.loaderOwned:
		q = `select max(finished_at)::timestamptz from ops.load_runs where status = 'completed'`
		fromLoad = true
	default:
		return time.Time{}, false, fmt.Errorf("source %s.%s declares freshness but no loaded_at_field (only the tables docket load writes have a load time without one)", n.SourceName, n.Name)
	}
	_, rows, err := db.Query(ctx, q)
	var t time.Time
	valid := false
	if err == nil && len(rows) == 1 && len(rows[0]) == 1 && rows[0][0] != nil {
		if t, valid = rows[0][0].(time.Time); !valid {
			err = fmt.Errorf("not a time: %v (%T)", rows[0][0], rows[0][0])
		}
	}
	if err != nil {
		if fromLoad {
			return time.Time{}, true, fmt.Errorf("docket's load times (ops.load_runs): %w", err)
		}
		return time.Time{}, false, fmt.Errorf("loaded_at_field %s of %s: %w", n.LoadedAtField, n.Relation, err)
	}
	if !valid {
		if fromLoad {
			return time.Time{}, true, fmt.Errorf("no completed docket load yet (ops.load_runs is empty)")
		}
		return time.Time{}, false, fmt.Errorf("max(%s) is null: %s has no rows with a load time", n.LoadedAtField, n.Relation)
	}
	return t, fromLoad, nil
}

// SourcesArtifact is target/sources.json (dbt's sources/v3).
type SourcesArtifact struct {
	Metadata    map[string]any    `json:"metadata"`
	Results     []FreshnessResult `json:"results"`
	ElapsedTime float64           `json:"elapsed_time"`
}
