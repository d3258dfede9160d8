package compiler

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// docBlock is a {% docs name %}...{% enddocs %} block from a .md file.
type docBlock struct{ name, path, content string }

var docsBlockRe = regexp.MustCompile(`(?s)\{%-?\s*docs\s+([A-Za-z_][A-Za-z0-9_]*)\s*-?%\}(.*?)\{%-?\s*enddocs\s*-?%\}`)

// docBlocks reads the docs blocks of the .md files under dbt_project.yml's
// docs-paths, once; without it under every source path (model, seed,
// snapshot, analysis, macro and test folders), as dbt's docs_paths default.
func (m *Manifest) docBlocks() map[string]docBlock {
	if m.docs != nil {
		return m.docs
	}
	m.docs = map[string]docBlock{}
	var dirs []string
	if d := m.Project.DBT; d != nil && len(d.DocsPaths) > 0 {
		dirs = m.dirs("docs")
	} else {
		for _, k := range []string{"models", "seeds", "snapshots", "analyses", "macros", "tests"} {
			dirs = append(dirs, m.dirs(k)...)
		}
	}
	files, _ := m.listTrees(dirs, ".md")
	for _, f := range files {
		b, err := m.readFile(f)
		if err != nil {
			continue
		}
		for _, g := range docsBlockRe.FindAllStringSubmatch(string(b), -1) {
			m.docs[g[1]] = docBlock{name: g[1], path: f, content: strings.TrimSpace(g[2])}
		}
	}
	return m.docs
}

// describe is the description under y, with its Jinja rendered as dbt
// renders YAML descriptions ({{ doc('name') }}, var, ...); a rendering
// error is a diagnostic at the description.
func (m *Manifest) describe(path string, y *yaml.Node, diags *[]Diagnostic) string {
	v := yget(y, "description")
	if v == nil {
		return ""
	}
	s := v.Value
	if !strings.Contains(s, "{{") && !strings.Contains(s, "{%") {
		return s
	}
	tpl, err := m.env.Parse(path+":description", s)
	if err == nil {
		rc := &renderCtx{m: m, n: &Node{Path: path, Config: Config{Enabled: true}}, cfg: map[string]any{}, refPos: map[string]Position{}}
		ctx := rc.vars()
		ctx["doc"] = render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("doc() needs a docs block name")
			}
			name := fmt.Sprint(a.Pos[len(a.Pos)-1])
			b, ok := m.docBlocks()[name]
			if !ok {
				return nil, fmt.Errorf("doc(%q): no {%% docs %s %%} block in a .md file", name, name)
			}
			return b.content, nil
		})
		var out string
		if out, err = tpl.Render(ctx); err == nil {
			return strings.TrimSpace(out)
		}
	}
	at := ypos(v)
	*diags = append(*diags, Diagnostic{Path: path, Line: at.Line, Col: at.Col, Msg: "description: " + err.Error()})
	return s
}

// docDocs fills manifest.json's docs with the docs blocks.
func (m *Manifest) docDocs(out map[string]map[string]any) {
	for name, b := range m.docBlocks() {
		id := "doc." + m.Name + "." + name
		out[id] = map[string]any{"unique_id": id, "resource_type": "doc", "name": name, "package_name": m.Name,
			"path": yamlResourcePath(b.path), "original_file_path": b.path, "block_contents": b.content}
	}
}
