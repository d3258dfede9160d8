package compiler

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// checkDbtProjectVersions warns, at its line in a dbt_project.yml (file,
// relative to the project; data its text), of a require-dbt-version that
// DbtVersion, the dbt version docket builds as, does not meet (dbt stops
// there; docket builds on, and features of later dbt versions may be
// warned or missing), and of a config-version other than 2 (dbt reads
// only version 2's layout). The project's own version: is a label dbt
// records and docket leaves alone.
func (m *Manifest) checkDbtProjectVersions(file string, data []byte) {
	root, err := yroot(data)
	if err != nil || root == nil {
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "require-dbt-version":
			var specs []string
			switch v.Kind {
			case yaml.ScalarNode:
				specs = []string{v.Value}
			case yaml.SequenceNode:
				for _, c := range v.Content {
					specs = append(specs, c.Value)
				}
			}
			for _, s := range specs {
				if ok, known := versionMeets(DbtVersion, s); !known {
					m.warn(file, ypos(k), "require-dbt-version %q is not a version range docket reads (like \">=1.7.0\"): not checked", s)
				} else if !ok {
					m.warn(file, ypos(k), "require-dbt-version %s is not met by dbt %s, the version docket builds as: docket builds anyway (dbt %s would stop), and features of later dbt versions may be warned or missing",
						strings.Join(specs, ", "), DbtVersion, DbtVersion)
					break
				}
			}
		case "config-version":
			if strings.TrimSpace(v.Value) != "2" {
				m.warn(file, ypos(k), "config-version %s: docket reads dbt_project.yml as version 2, the only one dbt 1.x reads (version 1 was removed in dbt 1.0)", v.Value)
			}
		}
	}
}

// versionMeets says whether version meets spec, one or more
// comma-separated comparisons (">=1.7.0", "<2.0.0", "1.8.0", "=1.8"),
// and whether spec could be read. Pre-release tags are ignored.
func versionMeets(version, spec string) (ok, known bool) {
	have, known := parseVersion(version)
	if !known {
		return false, false
	}
	ok = true
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		op := strings.TrimRight(part[:len(part)-len(strings.TrimLeft(part, "<>=~!"))], " ")
		want, known := parseVersion(strings.TrimSpace(strings.TrimLeft(part, "<>=~!")))
		if !known {
			return false, false
		}
		c := compareVersions(have, want)
		switch op {
		case ">=":
			ok = ok && c >= 0
		case ">":
			ok = ok && c > 0
		case "<=":
			ok = ok && c <= 0
		case "<":
			ok = ok && c < 0
		case "", "=", "==":
			ok = ok && c == 0
		default:
			return false, false
		}
	}
	return ok, true
}

// parseVersion reads "1.8.0" (a missing minor or patch is 0; a
// pre-release or build suffix is dropped).
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+abrc"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func compareVersions(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
