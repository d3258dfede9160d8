package compiler

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// dbt 1.9's microbatch incremental strategy, as dbt-core's
// MicrobatchBuilder plans it and dbt-duckdb writes it: the model runs
// once per window of batch_size (hour, day, month, year) of its
// event_time column, from begin on its first build (or --full-refresh),
// else the lookback windows before now's and now's; every ref() or
// source() of a node with its own event_time reads only the batch's
// window (one without reads everything), and each batch replaces the
// model's rows in its window (executor/microbatch.go).

// BatchSizes are the batch_size values dbt accepts.
var BatchSizes = map[string]bool{"hour": true, "day": true, "month": true, "year": true}

// Batch is one window [Start, End) of a microbatch model, in UTC; ID is
// dbt's batch id (20240917, or 20240917T16 for hours).
type Batch struct {
	ID         string
	Start, End time.Time
}

// setMicrobatchConfig applies event_time, batch_size, begin and
// lookback; false for any other key.
func setMicrobatchConfig(c *Config, k string, v any, bad func(string, ...any)) bool {
	switch k {
	case "event_time":
		s, ok := v.(string)
		if !ok && v != nil {
			bad("config event_time must be a column name (got %v)", v)
		}
		c.EventTime = strings.TrimSpace(s)
	case "batch_size":
		s, _ := v.(string)
		c.BatchSize = strings.ToLower(strings.TrimSpace(s))
		if !BatchSizes[c.BatchSize] {
			bad("config batch_size must be hour, day, month or year (got %v)", v)
		}
	case "begin":
		t, err := parseEventTime(v)
		if err != nil {
			bad("config begin: %v", err)
			return true
		}
		c.Begin = &t
	case "lookback":
		i, ok := v.(int)
		if !ok || i < 0 {
			bad("config lookback must be a whole number of batches, 0 or more (got %v)", v)
			return true
		}
		c.Lookback = &i
	case "concurrent_batches":
		// false (or none) is what docket does; true is warned by setConfig
		if b, ok := v.(bool); v != nil && (!ok || b) {
			return false
		}
	default:
		return false
	}
	return true
}

// ParseEventTime reads a begin config or an --event-time-start/end value:
// a date or a date and time (ISO 8601, with or without a zone; none is
// UTC), as dbt reads them.
func ParseEventTime(s string) (time.Time, error) { return parseEventTime(s) }

func parseEventTime(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case pyDatetime: // begin=modules.datetime.datetime(2020, 1, 1)
		return t.t.UTC(), nil
	case render.Date: // a YAML date (var('start'))
		return t.T.UTC(), nil
	case render.Datetime:
		return t.T.UTC(), nil
	case string:
		s := strings.TrimSpace(t)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05",
			"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
			if x, err := time.Parse(layout, s); err == nil {
				return x.UTC(), nil
			}
		}
		return time.Time{}, fmt.Errorf("%q is not a date or date and time (e.g. 2024-01-01 or 2024-01-01T06:00:00)", s)
	}
	return time.Time{}, fmt.Errorf("%v is not a date or date and time (e.g. 2024-01-01)", v)
}

// checkMicrobatch: a microbatch model needs event_time, batch_size and
// begin (dbt refuses the project without them).
func (m *Manifest) checkMicrobatch(c *Config, n *Node, at Position, bad func(Position, string, ...any)) {
	var missing []string
	if c.EventTime == "" {
		missing = append(missing, "event_time (the column its batches are cut by)")
	}
	if c.BatchSize == "" {
		missing = append(missing, "batch_size (hour, day, month or year)")
	}
	if c.Begin == nil {
		missing = append(missing, "begin (when its first batch starts)")
	}
	if len(missing) > 0 {
		bad(at, "microbatch model %s needs config %s", n.Name, strings.Join(missing, ", "))
	}
}

// warnBatchConfig: batch_size, begin and lookback set a microbatch model's
// batches; on any other node they are warned where written (dbt ignores
// them there). event_time is applied on every model, seed, snapshot and
// source (a microbatch model's ref filters by it).
func (m *Manifest) warnBatchConfig(c *Config, n *Node, at Position) {
	if n.ResourceType == Model && c.Materialized == "incremental" && c.IncrementalStrategy == "microbatch" {
		return
	}
	keys := []string{"batch_size", "begin", "lookback"}
	if n.ResourceType == Test || n.ResourceType == Analysis {
		keys = append(keys, "event_time")
	}
	for _, k := range keys {
		_, own := n.modelCfg[k]
		_, yml := n.ymlCfg[k]
		_, folder := n.folderCfg[k]
		if !(own || yml || folder) {
			continue
		}
		for _, p := range m.configPlaces(n, k, at) {
			m.warn(p.path, p.at, "config %s is applied only to an incremental model with incremental_strategy microbatch, not to %s %s: not applied", k, n.ResourceType, n.Name)
		}
	}
}

// TruncateTime is t at the start of its batch_size window (UTC).
func TruncateTime(t time.Time, size string) time.Time {
	t = t.UTC()
	switch size {
	case "hour":
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, time.UTC)
	case "month":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "year":
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// OffsetTime is t's window start moved by k windows.
func OffsetTime(t time.Time, size string, k int) time.Time {
	t = TruncateTime(t, size)
	switch size {
	case "hour":
		return t.Add(time.Duration(k) * time.Hour)
	case "month":
		return t.AddDate(0, k, 0)
	case "year":
		return t.AddDate(k, 0, 0)
	}
	return t.AddDate(0, 0, k)
}

// BatchPlan is what decides a microbatch model's batches in one run.
type BatchPlan struct {
	Incremental bool      // the table exists and this is no full refresh
	Start, End  time.Time // --event-time-start / --event-time-end (zero: none)
	Now         time.Time
}

// Batches are n's windows for plan p, as dbt-core's MicrobatchBuilder:
// the end is --event-time-end or now, rounded up to a window's end; the
// start is --event-time-start (rounded down), else begin on a first build
// or full refresh, else lookback windows before the end's (one more when
// the end falls on a window's edge, as it always does once rounded up);
// the last batch ends at the end exactly.
func (n *Node) Batches(p BatchPlan) ([]Batch, error) {
	c := n.Config
	size := c.BatchSize
	end := p.End
	if end.IsZero() {
		end = p.Now
	}
	if t := TruncateTime(end, size); !t.Equal(end.UTC()) {
		end = OffsetTime(t, size, 1)
	}
	var start time.Time
	switch {
	case !p.Start.IsZero():
		start = TruncateTime(p.Start, size)
	case !p.Incremental:
		if c.Begin == nil {
			return nil, fmt.Errorf("microbatch model %s needs a begin config", n.Name)
		}
		start = TruncateTime(*c.Begin, size)
	default:
		lookback := 1
		if c.Lookback != nil {
			lookback = *c.Lookback
		}
		if end.Equal(TruncateTime(end, size)) {
			lookback++
		}
		start = OffsetTime(end, size, -lookback)
	}
	if !start.Before(end) {
		return nil, fmt.Errorf("microbatch model %s: the batches' start %s is not before their end %s", n.Name, start.Format(time.RFC3339), end.Format(time.RFC3339))
	}
	var out []Batch
	for s := start; s.Before(end); s = OffsetTime(s, size, 1) {
		e := OffsetTime(s, size, 1)
		if e.After(end) {
			e = end
		}
		out = append(out, Batch{ID: BatchID(s, size), Start: s, End: e})
	}
	return out, nil
}

// BatchID is dbt's id of the batch starting at s.
func BatchID(s time.Time, size string) string {
	if size == "hour" {
		return s.UTC().Format("20060102T15")
	}
	return s.UTC().Format("20060102")
}

// EventTimeLiteral is t as dbt renders a batch bound in SQL
// (str(datetime) of a UTC time: 2024-01-01 00:00:00+00:00).
func EventTimeLiteral(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05-07:00") }

// batchFilter wraps r, the relation of t, in the batch's window of t's
// event_time, as dbt's event-time filtered relation (no alias, as
// dbt-duckdb renders it).
func batchFilter(r render.Relation, t *Node, b *Batch) render.Relation {
	col := t.Config.EventTime
	if b == nil || col == "" {
		return r // an ephemeral model's CTE is filtered too: its name stays in the SQL for inject
	}
	r.Rendered = fmt.Sprintf("(select * from %s where %s >= '%s' and %s < '%s')", r.Rendered, col, EventTimeLiteral(b.Start), col, EventTimeLiteral(b.End))
	return r
}

// batchValue is model.batch in a batch's render.
func batchValue(b *Batch) map[string]any {
	return map[string]any{"id": b.ID, "event_time_start": render.Datetime{T: b.Start}, "event_time_end": render.Datetime{T: b.End}}
}

// RenderBatch renders microbatch model n for batch b on q: its refs and
// sources with an event_time read b's window, model.batch is b, and
// is_incremental() is incremental.
func (m *Manifest) RenderBatch(ctx context.Context, q Querier, n *Node, incremental bool, b *Batch) (string, error) {
	if n.tpl == nil {
		return n.CompiledCode, nil
	}
	return m.renderDB(ctx, q, n, incremental, b)
}

// microbatchInputs warns of a microbatch model's settings that would make
// its batches wrong in silence: a unique_key (the batches replace windows
// of event_time, no key is matched; dbt-duckdb refuses it), and no input
// with an event_time (every batch then reads all of its inputs and
// inserts every row it returns into each window: unless its SQL filters
// on model.batch, the rows repeat once per batch).
func (m *Manifest) microbatchInputs() {
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if n.ResourceType != Model || n.Config.Materialized != "incremental" || n.Config.IncrementalStrategy != "microbatch" {
			continue
		}
		at := n.ConfigPos
		if at == (Position{}) {
			at = Position{1, 1}
		}
		if len(n.Config.UniqueKey) > 0 {
			from, fat := m.configWhere(n, "unique_key", at)
			m.warn(from, fat, "config unique_key is not applied to microbatch model %s: each batch replaces the rows of its window of %s (dbt-duckdb refuses a unique_key here; use incremental_strategy='merge' to match keys)", n.Name, n.Config.EventTime)
		}
		filtered := false
		for _, pid := range m.Parents[id] {
			if p := m.Sources[pid]; p != nil && p.Config.EventTime != "" {
				filtered = true
			}
			if p := m.Nodes[pid]; p != nil && p.Config.EventTime != "" {
				filtered = true
			}
		}
		if !filtered && !strings.Contains(n.RawCode, "model.batch") {
			m.warn(n.Path, at, "microbatch model %s reads no ref or source with an event_time config: every batch reads all of its inputs and inserts every row it returns (set event_time on its inputs, or filter on model.batch.event_time_start/end)", n.Name)
		}
	}
}
