package compiler

import (
	"encoding/json"
	"fmt"
	"strings"
)

// hookItems is a pre_hook/post_hook config value as its list of hooks,
// each a string or a {"sql": ..., "transaction": ...} mapping (dbt
// accepts one hook or a list of them).
func hookItems(v any) []any {
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		return append([]any(nil), t...)
	case []string:
		out := make([]any, len(t))
		for i, s := range t {
			out[i] = s
		}
		return out
	case []Hook:
		out := make([]any, len(t))
		for i, h := range t {
			out[i] = h
		}
		return out
	}
	return []any{v}
}

// toHooks reads hooks as dbt's get_hook_dict does: a mapping is the hook;
// a string that is a JSON object (what before_begin()/after_commit()
// render to) is read as one; any other string is the hook's SQL, run
// inside the transaction.
func toHooks(v any) []Hook {
	items := hookItems(v)
	out := make([]Hook, 0, len(items))
	for _, it := range items {
		out = append(out, toHook(it))
	}
	return out
}

func toHook(it any) Hook {
	if h, ok := it.(Hook); ok {
		return h
	}
	if mp, ok := stringKeyed(it); ok {
		h := Hook{Transaction: true}
		if s, ok := mp["sql"]; ok && s != nil {
			h.SQL = fmt.Sprint(s)
		}
		if b, ok := mp["transaction"].(bool); ok {
			h.Transaction = b
		}
		return h
	}
	s := fmt.Sprint(it) // a string, or a macro's output
	if h, ok := HookFromJSON(s); ok {
		return h
	}
	return Hook{SQL: s, Transaction: true}
}

// HookFromJSON reads s as a JSON hook ({"sql": ..., "transaction": ...},
// what dbt's before_begin/in_transaction/after_commit macros render).
func HookFromJSON(s string) (Hook, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return Hook{}, false
	}
	var d struct {
		SQL         *string `json:"sql"`
		Transaction *bool   `json:"transaction"`
	}
	if err := json.Unmarshal([]byte(s), &d); err != nil || d.SQL == nil {
		return Hook{}, false
	}
	h := Hook{SQL: *d.SQL, Transaction: true}
	if d.Transaction != nil {
		h.Transaction = *d.Transaction
	}
	return h, true
}

// hooksDoc is hooks as manifest.json has them (dbt's Hook).
func hooksDoc(hs []Hook) []any {
	out := []any{}
	for i, h := range hs {
		out = append(out, map[string]any{"sql": h.SQL, "transaction": h.Transaction, "index": i})
	}
	return out
}
