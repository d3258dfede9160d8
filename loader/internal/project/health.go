package project

import (
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"
)

// Ack acknowledges the health alarms of one load run: the run's figures
// are accepted and become the baseline later runs are compared with. In
// project.yaml either a bare run id or a mapping with a reason:
//
//	health:
//	  acknowledged:
//	    - 20261202T171500Z-1a2b3c4d
//	    - {run: 20261203T090000Z-5e6f7a8b, reason: "memos are short"}
type Ack struct {
	Run    string `yaml:"run"`
	Reason string `yaml:"reason"`
	Line   int    `yaml:"-"`
}

// UnmarshalYAML accepts a run id or a {run, reason} mapping.
func (a *Ack) UnmarshalYAML(n *yaml.Node) error {
	a.Line = n.Line
	switch n.Kind {
	case yaml.ScalarNode:
		a.Run = n.Value
		return nil
	case yaml.MappingNode:
		type plain Ack
		var v plain
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i]; k.Value {
			case "run", "reason":
			default:
				return fmt.Errorf("line %d: health.acknowledged: unknown key %q (want run, reason)", k.Line, k.Value)
			}
		}
		if err := n.Decode(&v); err != nil {
			return err
		}
		*a = Ack(v)
		a.Line = n.Line
		return nil
	}
	return fmt.Errorf("line %d: health.acknowledged: want a run id or {run: ID, reason: TEXT}", n.Line)
}

// runIDRe is the loader's run id form (20261202T171500Z-1a2b3c4d), loose
// enough for older ids but never a quote, so it is safe inside SQL.
var runIDRe = regexp.MustCompile(`^[0-9A-Za-z_.:-]+$`)

// validate checks the health settings (defaults filled, explicit values
// as written) into e, each error at its key's line.
func (h *Health) validate(e *errAt) {
	if h.MinDocuments < 1 {
		e.bad("health.min_documents", "health.min_documents must be at least 1 (got %d)", h.MinDocuments)
	}
	if h.Window < 1 {
		e.bad("health.window", "health.window must be at least 1 run (got %d)", h.Window)
	}
	if v := h.MaxMeanCharsDrop; v != nil && (*v < 0 || *v > 1) {
		e.bad("health.max_mean_chars_drop", "health.max_mean_chars_drop is a fraction from 0 to 1 (got %g)", *v)
	}
	if v := h.MinSuccessRate; v != nil && (*v < 0 || *v > 1) {
		e.bad("health.min_success_rate", "health.min_success_rate is a fraction from 0 to 1 (got %g)", *v)
	}
	for i, a := range h.Acknowledged {
		if !runIDRe.MatchString(a.Run) {
			e.bad(fmt.Sprintf("health.acknowledged[%d]", i), "health.acknowledged: %q is not a load run id (see ops.load_runs.run_id)", a.Run)
		}
	}
}

// AcknowledgedRuns lists the run ids of health.acknowledged.
func (h *Health) AcknowledgedRuns() []string {
	out := []string{}
	for _, a := range h.Acknowledged {
		out = append(out, a.Run)
	}
	return out
}
