package compiler

import (
	"fmt"
	"github.com/docket-dev/docket/loader/internal/runner/render"

	"gopkg.in/yaml.v3"
)

func yget(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func ystr(n *yaml.Node, key string) string {
	v := yget(n, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

func yseq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

func yany(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil
	}
	return v
}

// ymeta is a YAML meta: mapping in the file's order (dbt's dict); nil
// when n is not a mapping of string keys.
func ymeta(n *yaml.Node) *render.Mapping {
	if n == nil {
		return nil
	}
	if v, err := render.DecodeYAML(n); err == nil {
		if m, ok := v.(*render.Mapping); ok {
			return m
		}
	}
	m, _ := render.AsMapping(ymap(n))
	return m
}

func ymap(n *yaml.Node) map[string]any {
	m, _ := yany(n).(map[string]any)
	return m
}

func ypos(n *yaml.Node) Position {
	if n == nil {
		return Position{1, 1}
	}
	return Position{n.Line, n.Column}
}

func yroot(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode}, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: expected a mapping at the top", root.Line)
	}
	return root, nil
}

// impossibleTimestamp is the error of a YAML file (path, its root)
// holding a plain scalar that PyYAML reads as a timestamp of no real day
// (2024-02-30): Python's ValueError from safe_load, which stops dbt at
// that file. docket read it as a string and went on.
func impossibleTimestamp(path string, root *yaml.Node) (Diagnostic, bool) {
	bad, msg := render.ImpossibleTimestamp(root)
	if bad == nil {
		return Diagnostic{}, false
	}
	return Diagnostic{Path: path, Line: bad.Line, Col: bad.Column, Msg: fmt.Sprintf(
		"%s is a timestamp to PyYAML, whose safe_load raises ValueError: %s (dbt reads no such file; quote it to keep a string)", bad.Value, msg)}, true
}

// configPlaces is where each key of a YAML config: mapping c is written
// in file path, by the key as normKey makes it.
func configPlaces(path string, c *yaml.Node) map[string]place {
	out := map[string]place{}
	if c == nil || c.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(c.Content); i += 2 {
		out[normKey(c.Content[i].Value)] = place{path, ypos(c.Content[i])}
	}
	return out
}
