package main

import (
	"fmt"
	"maps"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// cpuTable collects CPU seconds (user+sys) by side and file ("" for a
// whole docket worker), summed over rounds.
type cpuTable struct {
	mu  sync.Mutex
	sec map[string]map[string]float64
	// rounds holds each round's own sums, by side and file.
	rounds []map[string]map[string]float64
	last   map[string]map[string]float64 // the sums when the round began
}

func newCPUTable() *cpuTable { return &cpuTable{sec: map[string]map[string]float64{}} }

// endRound records the CPU seconds added since the previous round ended.
func (t *cpuTable) endRound() {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := map[string]map[string]float64{}
	for side, m := range t.sec {
		r[side] = map[string]float64{}
		for f, s := range m {
			r[side][f] = s - t.last[side][f]
		}
	}
	t.rounds = append(t.rounds, r)
	t.last = map[string]map[string]float64{}
	for side, m := range t.sec {
		t.last[side] = maps.Clone(m)
	}
}

// holdout reports whether a scan is in eval-ocr's holdout half (odd pNN).
func holdout(f string) bool {
	var n int
	fmt.Sscanf(strings.TrimPrefix(filepath.Base(f), "p"), "%d", &n)
	return n%2 == 1
}

// roundRatios is, for each round, docket's CPU over the CLI's: whole
// processes (all files) or page by page over the files keep selects.
func (t *cpuTable) roundRatios(files []string, whole bool, keep func(string) bool) []float64 {
	var out []float64
	for _, r := range t.rounds {
		var d, c float64
		for _, f := range files {
			if !keep(f) {
				continue
			}
			c += r["cli"][f]
			if !whole {
				d += r["docket page"][f]
			}
		}
		if whole {
			d = r["docket"][""]
		}
		if c > 0 {
			out = append(out, d/c)
		}
	}
	return out
}

// medianRange formats the median and range of xs.
func medianRange(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return fmt.Sprintf("median %.2fx, range %.2f-%.2fx over %d rounds", m, s[0], s[len(s)-1], len(s))
}

func (t *cpuTable) add(side, file string, sec float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sec[side] == nil {
		t.sec[side] = map[string]float64{}
	}
	t.sec[side][file] += sec
}

// processCPU is the user+sys CPU seconds of a finished command.
func processCPU(cmd *exec.Cmd) float64 {
	if cmd.ProcessState == nil {
		return 0
	}
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
}

// print writes CPU per page on each side, whole processes and page by
// page, averaged over rounds.
func (t *cpuTable) print(files []string, rounds int) {
	n, r := float64(len(files)), float64(rounds)
	var cli, page float64
	for _, s := range t.sec["cli"] {
		cli += s
	}
	for _, s := range t.sec["docket page"] {
		page += s
	}
	worker := t.sec["docket"][""]
	fmt.Printf("CPU s/page, whole processes: docket %.2f, tesseract CLI %.2f, ratio docket/cli %.2fx (target <= 1x)\n", worker/r/n, cli/r/n, worker/cli)
	var logSum float64
	var per []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range files {
		d, c := t.sec["docket page"][f], t.sec["cli"][f]
		if d <= 0 || c <= 0 {
			continue
		}
		q := d / c
		logSum += math.Log(q)
		lo, hi = min(lo, q), max(hi, q)
		per = append(per, fmt.Sprintf("%s %.2f/%.2f", strings.TrimSuffix(filepath.Base(f), ".png"), d/r, c/r))
	}
	fmt.Printf("CPU s/page, page by page: docket %.2f (recognition alone), CLI %.2f; docket/cli geometric mean %.2fx, range %.2f-%.2fx\n", page/r/n, cli/r/n, math.Exp(logSum/float64(max(len(per), 1))), lo, hi)
	fmt.Printf("  docket/cli s: %s\n", strings.Join(per, ", "))
	all := func(string) bool { return true }
	odd := func(f string) bool { return holdout(f) }
	even := func(f string) bool { return !holdout(f) }
	fmt.Printf("CPU docket/cli by round (target <= 1x): whole processes %s\n", medianRange(t.roundRatios(files, true, all)))
	fmt.Printf("  page by page: all %s; tune (even) %s; holdout (odd) %s\n",
		medianRange(t.roundRatios(files, false, all)), medianRange(t.roundRatios(files, false, even)), medianRange(t.roundRatios(files, false, odd)))
}
