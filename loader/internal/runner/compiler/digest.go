package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// StateTable holds the runner's per-node fingerprints.
const StateTable = "ops.build_state"

// DeltaTable holds the links between data versions of incremental models.
const DeltaTable = "ops.build_deltas"

// stateFormat changes when the fingerprint's recipe changes, so records of
// an older docket never match.
const stateFormat = "docket-build-state-1"

// GlobalDigest covers what any node's SQL may depend on beyond its own
// file: every var, every project and package macro file, every Go UDF's
// version.
func (m *Manifest) GlobalDigest() string {
	vars, _ := json.Marshal(m.Vars) // map keys marshal sorted
	parts := []string{stateFormat, string(vars)}
	for _, name := range SortedKeys(m.Macros) {
		f := m.Macros[name]
		b, err := m.digestRead(f)
		if err != nil {
			b = []byte("unreadable:" + err.Error())
		}
		parts = append(parts, name, f, string(b))
	}
	if m.env != nil {
		pk := m.env.PackageMacros()
		read := map[string]bool{}
		for _, p := range SortedKeys(pk) {
			for _, name := range SortedKeys(pk[p]) {
				f := pk[p][name]
				parts = append(parts, p, name, f)
				if read[f] {
					continue
				}
				read[f] = true
				b, err := m.digestRead(f)
				if err != nil {
					b = []byte("unreadable")
				}
				parts = append(parts, string(b))
			}
		}
	}
	var udfs []string
	for _, u := range m.UDFs {
		udfs = append(udfs, u.Name+"/"+u.Signature()+"/"+u.Version)
	}
	sort.Strings(udfs)
	parts = append(parts, udfs...)
	return Digest(parts...)
}

// digestRead reads a macro file for the digest (a manifest built without
// Parse reads from the disk).
func (m *Manifest) digestRead(f string) ([]byte, error) {
	if m.Project == nil || m.fsys == nil {
		return os.ReadFile(f)
	}
	return m.readFile(f)
}

func Digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
