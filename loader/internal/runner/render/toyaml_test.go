package render

import (
	"math/big"
	"testing"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TestToYAMLAsDbt: toyaml is yaml.safe_dump(sort_keys=False) as dbt's:
// a dict's keys in its own order (sort_keys=true sorts them), floats
// with their point, a lone scalar ended by "...", a date and a datetime
// as their text, and a Decimal (which safe_dump refuses) the default.
// On main the keys came sorted, a date printed {} and a Decimal its
// internals.
func TestToYAMLAsDbt(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2), "day": Date{at}, "ts": Datetime{at}}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ toyaml({'z': 1, 'a': 2.0, 'm': {'y': none, 'b': true}}) }}`, "z: 1\na: 2.0\nm:\n  y: null\n  b: true\n"},
		{`{{ toyaml({'z': 1, 'a': 2}, sort_keys=true) }}|{{ toyaml(fromyaml('b: 1\na: [x]')) }}`, "a: 2\nz: 1\n|b: 1\na:\n- x\n"},
		{`{{ toyaml({'day': day, 'ts': ts}) }}|{{ toyaml(day) }}|{{ toyaml('abc') }}|{{ toyaml(1e20) }}`,
			"day: 2024-01-02\nts: 2024-01-02 03:04:05+00:00\n|2024-01-02\n...\n|abc\n...\n|1.0e+20\n...\n"},
		{`{{ toyaml({'x': d}, 'refused') }}|{{ toyaml(d) is none }}`, "refused|True"},
	})
}

// TestToYAMLAsPyYAML: toyaml's text is PyYAML's safe_dump's, byte for
// byte: each expected text below was written by PyYAML 6.0.3
// (yaml.safe_dump(v, sort_keys=False) of the same literal). A list in a
// mapping is flush with its key (yaml.v3 indented it), a string that
// would read back as another type is single-quoted ('123', 'yes', 'on',
// '2024-01-02', '~'; yaml.v3 double-quoted some and left yes/on plain,
// which read back as booleans), indicators and spaces quote as PyYAML
// decides, a non-ASCII or tab character is double-quoted with its
// escape, a line break in a single-quoted scalar is written twice, a
// plain or single-quoted scalar folds at column 80.
func TestToYAMLAsPyYAML(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{{ toyaml({'a': [1, 2, {'x': 'y'}], 'b': '123', 'c': 'yes', 'd': '', 'e': 'a: b', 'f': none, 'g': [[1, 2], [3]], 'h': '1.5', 'i': 'null', 'j': 'x y', 'k': \"it's\", 'l': '0x1f', 'm': '~', 'n': 'True', 'o': {'p': []}, 'q': {}}) }}", "a:\n- 1\n- 2\n- x: y\nb: '123'\nc: 'yes'\nd: ''\ne: 'a: b'\nf: null\ng:\n- - 1\n  - 2\n- - 3\nh: '1.5'\ni: 'null'\nj: x y\nk: it's\nl: '0x1f'\nm: '~'\nn: 'True'\no:\n  p: []\nq: {}\n"},
		{"{{ toyaml([1, 'a', ['b'], {'k': [1, {'z': 2}]}, [], {}]) }}", "- 1\n- a\n- - b\n- k:\n  - 1\n  - z: 2\n- []\n- {}\n"},
		{"{{ toyaml({'s1': 'on', 's2': 'Off', 's3': '1_000', 's4': '2024-01-02', 's5': '2024-01-02 10:20:30', 's6': '12:30', 's7': '1e5', 's8': '.5', 's9': '-', 's10': '- a', 's11': '#x', 's12': 'a #b', 's13': 'a#b', 's14': '? x', 's15': ':x', 's16': 'x:', 's17': '<<', 's18': '=', 's19': '@x', 's20': '`x', 's21': '!x', 's22': '%x', 's23': '&x', 's24': '*x', 's25': '|x', 's26': '>x', 's27': '[x', 's28': 'x]', 's29': 'x,y', 's30': '{x', 's31': '---', 's32': '...x', 's33': ' lead', 's34': 'trail ', 's35': 'tab\\there', 's36': 'caf\\u00e9', 's37': 'a\\nb', 's38': 'a\\n\\nb', 's39': 'a \\nb', 's40': '\"q\"', 's41': \"'\", 's42': '\\\\back', 's43': 'NULL', 's44': 'Null', 's45': 'y', 's46': 'n', 's47': '0o17', 's48': '+1', 's49': '-1.5e+3', 's50': '0b101', 's51': '017', 's52': '09', 's53': '.inf', 's54': '.NaN', 's55': 'x\\n'}) }}", "s1: 'on'\ns2: 'Off'\ns3: '1_000'\ns4: '2024-01-02'\ns5: '2024-01-02 10:20:30'\ns6: '12:30'\ns7: 1e5\ns8: '.5'\ns9: '-'\ns10: '- a'\ns11: '#x'\ns12: 'a #b'\ns13: a#b\ns14: '? x'\ns15: :x\ns16: 'x:'\ns17: '<<'\ns18: '='\ns19: '@x'\ns20: '`x'\ns21: '!x'\ns22: '%x'\ns23: '&x'\ns24: '*x'\ns25: '|x'\ns26: '>x'\ns27: '[x'\ns28: x]\ns29: x,y\ns30: '{x'\ns31: '---'\ns32: '...x'\ns33: ' lead'\ns34: 'trail '\ns35: \"tab\\there\"\ns36: \"caf\\xE9\"\ns37: 'a\n\n  b'\ns38: 'a\n\n\n  b'\ns39: \"a \\nb\"\ns40: '\"q\"'\ns41: ''''\ns42: \\back\ns43: 'NULL'\ns44: 'Null'\ns45: y\ns46: n\ns47: 0o17\ns48: '+1'\ns49: '-1.5e+3'\ns50: '0b101'\ns51: '017'\ns52: 09\ns53: '.inf'\ns54: '.NaN'\ns55: 'x\n\n  '\n"},
		{"{{ toyaml({'long': 'word word word word word word word word word word word word word word word word word word word word word word word', 'longq': \"word's word word word word word word word word word word word word word word word word word word word word word word\"}) }}", "long: word word word word word word word word word word word word word word word word\n  word word word word word word word\nlongq: word's word word word word word word word word word word word word word word\n  word word word word word word word word\n"},
		{"{{ toyaml({'nested': {'deeper': {'list': ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb cccccccccccccccccccc dddddddddd', 'x']}}}) }}", "nested:\n  deeper:\n    list:\n    - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n      cccccccccccccccccccc dddddddddd\n    - x\n"},
		{"{{ toyaml('plain') }}", "plain\n...\n"},
		{"{{ toyaml('') }}", "''\n"},
		{"{{ toyaml('yes') }}", "'yes'\n"},
		{"{{ toyaml(\"it's\") }}", "it's\n...\n"},
		{"{{ toyaml(123) }}", "123\n...\n"},
		{"{{ toyaml(1.5) }}", "1.5\n...\n"},
		{"{{ toyaml(none) }}", "null\n...\n"},
		{"{{ toyaml(true) }}", "true\n...\n"},
		{"{{ toyaml([]) }}", "[]\n"},
		{"{{ toyaml({}) }}", "{}\n"},
		{"{{ toyaml('a\\nb') }}", "'a\n\n  b'\n"},
		{"{{ toyaml('caf\\u00e9') }}", "\"caf\\xE9\"\n"},
	})
}
