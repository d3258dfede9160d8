package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// pythonProject: a Python model (scores) between SQL models: uses_py and
// (through it) top ref it, other is unrelated.
var pythonProject = map[string]string{
	"models/m/a.sql":       "select 1 as id",
	"models/m/other.sql":   "select id + 1 as id from {{ ref('a') }}",
	"models/py/scores.py":  "def model(dbt, session):\n    dbt.config(materialized='table')\n    return dbt.ref('a').df()\n",
	"models/m/uses_py.sql": "select *\nfrom {{ ref('scores') }}",
	"models/m/top.sql":     "select * from {{ ref('uses_py') }}",
}

// TestPythonModelIsNamed: a dbt Python model is a node of the graph (a
// model of language python in manifest.json, its dbt.ref() a parent), is
// warned at its file, and a SQL model's ref() to it resolves (it was a
// parse error that stopped the whole project).
func TestPythonModelIsNamed(t *testing.T) {
	dir := writeProbe(t, pythonProject)
	m, diags := parseProbe(t, dir)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].String(), "models/py/scores.py:1:1: ") ||
		!strings.Contains(m.Warnings[0].Msg, "Python model") || !strings.Contains(m.Warnings[0].Msg, "duckdb Python module") {
		t.Errorf("warnings: %v", m.Warnings)
	}
	py := m.Nodes["model.probe.scores"]
	if py == nil {
		t.Fatalf("no node model.probe.scores: %v", keysOf(m.Nodes))
	}
	if strings.Join(py.DependsOn.Nodes, ",") != "model.probe.a" || strings.Join(m.Parents["model.probe.uses_py"], ",") != "model.probe.scores" {
		t.Errorf("scores depends on %v, uses_py on %v", py.DependsOn.Nodes, m.Parents["model.probe.uses_py"])
	}
	b, err := json.Marshal(m.ManifestDoc())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Nodes map[string]map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if d := doc.Nodes["model.probe.scores"]; d == nil || d["resource_type"] != "model" || d["language"] != "python" ||
		d["original_file_path"] != "models/py/scores.py" || doc.Nodes["model.probe.a"]["language"] != "sql" {
		t.Errorf("manifest.json scores: %v", d)
	}
	validateManifest(t, m)
}

// TestPythonModelFailsAlone: building a project with a Python model builds
// everything else: the Python model's result is an error saying why
// docket does not build it, the models that ref it (directly or not) are
// skipped naming it, unrelated models build. A selection without it and
// its children builds cleanly.
func TestPythonModelFailsAlone(t *testing.T) {
	dir := writeProbe(t, pythonProject)
	m, diags := parseProbe(t, dir)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	db, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if r := got["scores"]; r.Status != executor.StatusError || !strings.Contains(r.Message, "models/py/scores.py is a dbt Python model") ||
		!strings.Contains(r.Message, "duckdb Python module, which docket does not embed") {
		t.Errorf("scores: %s %q", r.Status, r.Message)
	}
	for _, name := range []string{"uses_py", "top"} {
		if r := got[name]; r.Status != executor.StatusSkipped || !strings.Contains(r.Message, "model scores errored") {
			t.Errorf("%s: %s %q", name, r.Status, r.Message)
		}
	}
	for _, name := range []string{"a", "other"} {
		if r := got[name]; r.Status != executor.StatusSuccess {
			t.Errorf("%s: %s %q", name, r.Status, r.Message)
		}
	}
	if !rr.Failed() {
		t.Errorf("the run should count as failed (an error result)")
	}
	if n := countRows(t, db, "m.other"); n != 1 {
		t.Errorf("m.other has %d rows", n)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1,
		Selected: []string{"model.probe.a", "model.probe.other"}, Force: true})
	if err != nil || rr.Failed() || len(rr.Results) != 2 {
		t.Errorf("selection without the Python model: %v %s", err, idStatuses(rr))
	}
}

// TestPythonModelUnknownRef: a Python model's dbt.ref() or dbt.source()
// to nothing is an error at the call, as a SQL model's ref() is; a
// materialization dbt refuses for Python is warned and taken as table.
func TestPythonModelUnknownRef(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql":       "select 1 as id",
		"models/py/scores.yml": "version: 2\nmodels:\n  - name: scores\n    config: {materialized: view}\n",
		"models/py/scores.py":  "\ndef model(dbt, session):\n    x = dbt.ref(\"a\")\n    return dbt.ref( 'nope' ).df().join(dbt.source('raw', 'gone').df())\n",
	})
	m, diags := parseProbe(t, dir)
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := `models/py/scores.py:4:12: ref("nope"): no model or seed named "nope"` + "\n" +
		`models/py/scores.py:4:40: source("raw", "gone") is not declared: no sources: list in the project's YAML names it`
	if strings.Join(got, "\n") != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if n := m.Nodes["model.probe.scores"]; n == nil || n.Config.Materialized != "table" {
		t.Errorf("scores: %+v", n)
	}
	if len(m.Warnings) != 2 || !strings.Contains(m.Warnings[0].Msg, `materialized "view": dbt builds Python models as table or incremental only`) {
		t.Errorf("warnings: %v", m.Warnings)
	}
}

// TestPythonModelConfigCall: a Python model's dbt.config(...) is its
// config(...) (dbt reads its keyword arguments as literals): a folder's
// materialized view, schema and tags give way to it, as they do to a SQL
// model's config() (it was not read: the folder's view was warned as
// refused although the file says table, and its tags, schema and alias
// were dropped without a word). An argument that is not a literal is
// warned at its line and not applied.
func TestPythonModelConfigCall(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"dbt_project.yml": "name: probe\nprofile: probe\nmodels:\n  probe:\n    py:\n      +materialized: view\n      +tags: ['folder']\n",
		"models/m/a.sql":  "select 1 as id",
		"models/py/scores.py": "import os\n\ndef model(dbt, session):\n    dbt.config(\n        materialized=\"table\",\n" +
			"        tags=['py', \"nightly\"], schema='pyout', alias='scores_t',\n        meta={'owner': 'ana', 'tier': 2, 'pii': False, 'x': None},\n    )\n" +
			"    dbt.config(  # python-only\n        # tags=['commented'],\n        packages=[\"numpy\"])\n    return dbt.ref('a').df()\n",
		"models/py/other.py": "def model(dbt, session):\n    dbt.config(materialized=os.environ['MAT'], tags=['ok'])\n    return dbt.ref('a').df()\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	n := m.Nodes["model.probe.scores"]
	if n == nil {
		t.Fatalf("no scores: %v", keysOf(m.Nodes))
	}
	if n.Config.Materialized != "table" || strings.Join(n.Config.Tags, ",") != "folder,py,nightly" ||
		n.Schema != "main_pyout" || n.Alias != "scores_t" || n.ConfigPos.Line != 4 {
		t.Errorf("scores: materialized %q tags %v schema %q alias %q at %v", n.Config.Materialized, n.Config.Tags, n.Schema, n.Alias, n.ConfigPos)
	}
	if meta := n.Config.Meta.Vals; meta["owner"] != "ana" || meta["pii"] != false || meta["x"] != nil || meta["tier"] == nil {
		t.Errorf("scores meta: %#v", meta)
	}
	o := m.Nodes["model.probe.other"]
	if o == nil || strings.Join(o.Config.Tags, ",") != "folder,ok" {
		t.Errorf("other: %+v", o)
	}
	var ws []string
	for _, w := range m.Warnings {
		ws = append(ws, w.String())
	}
	all := strings.Join(ws, "\n")
	if strings.Contains(all, `scores.py:1:1: materialized "view"`) || !strings.Contains(all, "scores.py:4:5: config packages is read but not applied") ||
		!strings.Contains(all, "models/py/other.py:2:16: dbt.config(materialized=os.environ['MAT']): not a literal") {
		t.Errorf("warnings:\n%s", all)
	}
}
