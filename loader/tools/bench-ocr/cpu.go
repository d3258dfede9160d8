package main

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// cpuTable collects CPU seconds (user+sys) by side and file ("" for a
// whole docket worker), summed over rounds.
type cpuTable struct {
	mu  sync.Mutex
	sec map[string]map[string]float64
}

func newCPUTable() *cpuTable { return &cpuTable{sec: map[string]map[string]float64{}} }

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

// selfCPU is this process' user+sys CPU seconds so far.
func selfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
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
}
