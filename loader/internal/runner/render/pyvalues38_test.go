package render

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
	"gopkg.in/yaml.v3"
)

// TestPyValuesAsJinja2Session38 (review40's LOWs): each expected text is
// what jinja2 3.1.6 gives (python3 here). On main: range(5)[1:] printed
// range(0, 5) (the unsliced range's arguments), range(5)[::-1] a list;
// range(3)|tojson and tojson(range(3)) wrote [0, 1, 2] (json.dumps
// raises); '{a}'.format(a=Decimal) failed naming a Go type
// ("exec.Decimal"), so did a date, None, a list; partition printed a
// list; format_map({'x': 1}) was KeyError: 'x'.
func TestPyValuesAsJinja2Session38(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	day := time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC)
	ctx := map[string]any{"dec": exec.NewDecimal(big.NewInt(150), 2), "dt": Date{T: day},
		"ts": Datetime{T: time.Date(2024, 1, 31, 10, 5, 6, 0, time.UTC)}, "fl": 1.5}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{"{{ range(5)[1:] }} {{ range(5)[::-1] }} {{ range(10)[2:100:3] }} {{ range(1, 10, 2)[1:3] }} {{ range(5)[-2:] }}",
			"range(1, 5) range(4, -1, -1) range(2, 10, 3) range(3, 7, 2) range(3, 5)"},
		{"{{ range(5)[1:]|list }} {{ range(5)[::-2]|length }} {{ 3 in range(5)[1:] }}", "[1, 2, 3, 4] 3 True"},
		{"{{ '{a}'.format(a=dec) }}|{{ '{}|{}'.format(dec, 2) }}|{{ '{:.1f}'.format(dec) }}|{{ '{:>8}'.format(dec) }}",
			"1.50|1.50|2|1.5|    1.50"},
		{"{{ '{a}'.format(a=dt) }}|{{ '{:%Y/%m}'.format(dt) }}|{{ '{:%H:%M}'.format(ts) }}|{{ '{a}'.format(a=none) }}",
			"2024-01-31|2024/01|10:05|None"},
		{"{{ '{a}'.format(a=[1, 'x']) }}|{{ '{}'.format({'a': 1}) }}|{{ '{}'.format((1, 'a')) }}|{{ '{a}'.format(a=fl) }}|{{ '{:>6}'.format('ab') }}",
			"[1, 'x']|{'a': 1}|(1, 'a')|1.5|    ab"},
		{"{{ '{x}-{y}'.format_map({'x': 1, 'y': 'b'}) }}", "1-b"},
		{"{{ 'a,b'.partition(',') }} {{ 'a,b,c'.rpartition(',') }} {{ 'a'.partition(',') }}", "('a', ',', 'b') ('a,b', ',', 'c') ('a', '', '')"},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		"{{ range(3)|tojson }}":      "Object of type range is not JSON serializable",
		"{{ tojson(range(3)) }}":     "Object of type range is not JSON serializable",
		"{{ '{:>5}'.format(none) }}": "unsupported format string passed to NoneType.__format__",
		"{{ '{:>3}'.format([1]) }}":  "unsupported format string passed to list.__format__",
		"{{ dec|tojson }}":           "Object of type Decimal is not JSON serializable",
	})
}

// TestYAMLTimestampsAsPyYAML: YAML timestamps decode as PyYAML 6.0.3's
// safe_load gives them (expected reprs written by it): a naive date and
// time is a naive datetime (it was a Go time printing "2024-01-02
// 10:20:30 +0000 UTC"), the forms yaml.v3 leaves strings (a zone after a
// blank or after a space separator, one-digit parts) are datetimes, and Z
// is datetime.timezone.utc.
func TestYAMLTimestampsAsPyYAML(t *testing.T) {
	NaiveDatetime = func(t time.Time) any { return naiveForTest{t} }
	defer func() { NaiveDatetime = nil }()
	for src, want := range map[string]string{
		"2024-01-02":                 "datetime.date(2024, 1, 2)",
		"2024-01-02 10:20:30":        "naive 2024-01-02 10:20:30",
		"2024-01-02 10:20:30+02:00":  "datetime.datetime(2024, 1, 2, 10, 20, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=7200)))",
		"2024-01-02 10:20:30 +02:00": "datetime.datetime(2024, 1, 2, 10, 20, 30, tzinfo=datetime.timezone(datetime.timedelta(seconds=7200)))",
		"2024-1-2t1:20:30.5Z":        "datetime.datetime(2024, 1, 2, 1, 20, 30, 500000, tzinfo=datetime.timezone.utc)",
		"2024-01-02T10:20:30Z":       "datetime.datetime(2024, 1, 2, 10, 20, 30, tzinfo=datetime.timezone.utc)",
		"2024-01-02 1:02:03 -5":      "datetime.datetime(2024, 1, 2, 1, 2, 3, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))",
		"'2024-01-02 10:20:30'":      "'2024-01-02 10:20:30'",
		// jinja41: PyYAML needs the offset's colon and a date alone's two digits
		"2024-01-02 10:20:30-0530": "'2024-01-02 10:20:30-0530'",
		"2024-01-02 10:20:30+0200": "'2024-01-02 10:20:30+0200'",
		"2024-1-2":                 "'2024-1-2'",
		"2024-01-02 10:20:30-05":   "datetime.datetime(2024, 1, 2, 10, 20, 30, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))",
		"2024-1-2 1:20:30":         "naive 2024-01-02 01:20:30",
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+src), &n); err != nil {
			t.Fatal(err)
		}
		v, err := DecodeYAML(n.Content[0].Content[1])
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got := exec.PyRepr(exec.AsValue(v))
		if nv, ok := v.(naiveForTest); ok {
			got = "naive " + nv.t.Format("2006-01-02 15:04:05")
		}
		if got != want {
			t.Errorf("%s: %s, want %s", src, got, want)
		}
	}
}

type naiveForTest struct{ t time.Time }

// TestYAMLImpossibleTimestampsRaise: a scalar PyYAML resolves as a
// timestamp but whose parts name no real day or time (2024-02-30) is
// Python's ValueError from safe_load, not a string (review41 LOW 5):
// DecodeYAML's error says so (a --vars mapping is refused with it, a
// dbt_project.yml var is warned at its line), and fromyaml() gives its
// default, as dbt's catches the ValueError. A quoted one stays a string.
// Messages from PyYAML 6.0.3 / Python 3.11.
func TestYAMLImpossibleTimestampsRaise(t *testing.T) {
	for src, want := range map[string]string{
		"2024-02-30":          "day is out of range for month",
		"2023-02-29":          "day is out of range for month",
		"2024-13-01":          "month must be in 1..12",
		"2024-01-02 25:00:00": "hour must be in 0..23",
		"0000-01-01":          "year 0 is out of range",
	} {
		if _, err := DecodeYAMLMapping("v: " + src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ValueError: %s", src, err, want)
		}
	}
	if m, err := DecodeYAMLMapping("v: '2024-02-30'\nw: 2024-02-29"); err != nil || fmt.Sprint(m["v"]) != "2024-02-30" {
		t.Errorf("quoted: %v %v", m, err)
	}
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{{ fromyaml('a: 2024-02-30') }}|{{ fromyaml('a: 2024-02-30', {'x': 1}) }}", "None|{'x': 1}"},
	})
}
