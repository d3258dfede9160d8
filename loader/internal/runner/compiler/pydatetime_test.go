package compiler_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestModulesDatetimeConstructor: modules.datetime.datetime(y, m, d[, H,
// M, S]) is Python's datetime, as dbt's own microbatch adapter tests write
// begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0): it was "datetime()
// is not a method docket provides". It prints as str() prints it, has its
// fields and strftime, and is a microbatch model's begin; a date that does
// not exist is an error at its call.
func TestModulesDatetimeConstructor(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='t', batch_size='day', " +
			"begin=modules.datetime.datetime(2020, 1, 2, 3, 0, 0)) }}" +
			"select '{{ modules.datetime.datetime(2020, 2, 3, 4, 5, 6) }}' as s, {{ modules.datetime.datetime(2021, 5, 6).month }} as m, " +
			"'{{ modules.datetime.datetime(2020, 2, 3).strftime('%Y/%m/%d') }}' as f, '{{ modules.datetime.datetime.now().year > 2000 }}' as n, now() as t",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	n := m.Nodes["model.mem.a"]
	if !strings.Contains(n.CompiledCode, "'2020-02-03 04:05:06' as s, 5 as m, '2020/02/03' as f, 'True' as n") {
		t.Errorf("a.sql compiled to %q", n.CompiledCode)
	}
	if b := n.Config.Begin; b == nil || !b.Equal(time.Date(2020, 1, 2, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("begin %v, want 2020-01-02 03:00:00 UTC", b)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ modules.datetime.datetime(2021, 2, 30) }}' as x"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "models/b.sql:1:") || !strings.Contains(got[0], "not a date") {
		t.Errorf("diagnostics %q, want b.sql's 30 February", got)
	}
}
