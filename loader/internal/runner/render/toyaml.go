package render

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
	"gopkg.in/yaml.v3"
)

// toYAML is dbt's toyaml(value, default=None, sort_keys=False):
// yaml.safe_dump of v with a dict's keys in its own order (sort_keys
// sorts them), a top-level scalar ended by "...", a date as its
// ISO text; a value safe_dump cannot represent (a Decimal, an object)
// gives the default. It wrote Go's YAML of the Go map: keys always
// sorted, a date {} and a Decimal its internals.
func toYAML(a Args) (any, error) {
	if len(a.Raw) == 0 {
		return nil, fmt.Errorf("toyaml() needs a value")
	}
	sortKeys := false
	if s, ok := a.Kw["sort_keys"]; ok {
		sortKeys = exec.AsValue(s).IsTrue()
	} else if len(a.Raw) > 2 {
		sortKeys = a.Raw[2].IsTrue()
	}
	n, ok := yamlNode(PyValue(a.Raw[0]), sortKeys)
	if !ok {
		return defaultArg(a, 1, "default"), nil
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2) // PyYAML's; a list in a mapping is still indented (yaml.v3 cannot write it flush)
	if err := enc.Encode(n); err != nil || enc.Close() != nil {
		return defaultArg(a, 1, "default"), nil
	}
	s := b.String()
	if n.Kind == yaml.ScalarNode {
		s += "...\n" // PyYAML ends a lone scalar's document
	}
	return s, nil
}

// yamlNode is v (a PyValue) as a YAML node the way PyYAML's SafeDumper
// represents it; false for what it refuses.
func yamlNode(v any, sortKeys bool) (*yaml.Node, bool) {
	scalar := func(tag, text string) (*yaml.Node, bool) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}, true
	}
	switch x := v.(type) {
	case nil:
		return scalar("!!null", "null")
	case bool:
		return scalar("!!bool", strconv.FormatBool(x))
	case int, int64, int32, uint, uint64, uint32, *big.Int:
		return scalar("!!int", fmt.Sprint(x))
	case float64:
		return scalar("!!float", pyYAMLFloat(x))
	case string:
		return scalar("!!str", x)
	case *Mapping:
		keys := append([]string(nil), x.Keys...)
		if sortKeys {
			sort.Strings(keys)
		}
		return mappingNode(keys, x.Vals, sortKeys)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a Go map has no order of its own
		return mappingNode(keys, x, sortKeys)
	case []any:
		return sequenceNode(x, sortKeys)
	case Tuple: // safe_dump writes a tuple as a list
		return sequenceNode(x, sortKeys)
	case exec.PyTypeNamer:
		switch x.PyTypeName() {
		case "datetime.date", "datetime.datetime": // PyYAML: isoformat(' '), str()'s text, plain
			return &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(x)}, true
		}
	}
	return nil, false // a Decimal, a relation, a table: RepresenterError
}

func mappingNode(keys []string, vals map[string]any, sortKeys bool) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keys {
		v, ok := yamlNode(vals[k], sortKeys)
		if !ok {
			return nil, false
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, v)
	}
	return n, true
}

func sequenceNode(items []any, sortKeys bool) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range items {
		v, ok := yamlNode(e, sortKeys)
		if !ok {
			return nil, false
		}
		n.Content = append(n.Content, v)
	}
	return n, true
}

// pyYAMLFloat is a float as PyYAML writes it: repr with a point (2.0,
// 1.0e+20), .nan, .inf, -.inf.
func pyYAMLFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if mant, exp, isExp := strings.Cut(s, "e"); isExp {
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		return mant + "e" + exp
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
