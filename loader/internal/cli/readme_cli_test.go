package cli_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/cli"
)

// The README checks' patterns, compiled once.
var (
	codeSpanRE       = regexp.MustCompile("`([^`]+)`")
	envAssignRE      = regexp.MustCompile(`^[A-Z_]+=`)
	helpFlagRE       = regexp.MustCompile(`(?m)^\s+-(-?[a-z][a-z0-9-]*)`)
	commonFlagRE     = regexp.MustCompile(`--([a-z][a-z-]*)`)
	looseFlagRE      = regexp.MustCompile(`(?:^|[\s\[(])--([a-z][a-z0-9-]*)`)
	usageLineRE      = regexp.MustCompile(`(?m)^  docket ([a-z-]+)((?: \| [a-z-]+)*)`)
	negativeNumberRE = regexp.MustCompile(`^-\d`)
	makeTargetRE     = regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`)
	makeCallRE       = regexp.MustCompile(`(?:^|[\s;&(])make ([a-z][a-z0-9-]*)`)
	anchorDropRE     = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	linkRE           = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	testFuncRE       = regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	testNameRE       = regexp.MustCompile(`\bTest[A-Z]\w+`)
	repoPathRE       = regexp.MustCompile(`^(loader|models|macros|seeds|snapshots|deploy|examples|third_party)/[\w./-]*$`)
)

// readmeCode returns the README's code: each line of its fenced blocks and
// each inline code span, in order.
func readmeCode(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	fenced := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			code = append(code, line)
			continue
		}
		for _, m := range codeSpanRE.FindAllStringSubmatch(line, -1) {
			code = append(code, m[1])
		}
	}
	return code
}

// shellWords splits a command line of the README into commands. Written
// here rather than taken from a shell parser (mvdan.cc/sh): the README's
// lines are notation, not shell ("--python | --node" are alternatives,
// "[-k 10]" an optional flag), which a real parser reads as pipes. It splits
// as a shell would for our purpose:
// quotes group words, # starts a comment, and &&, ; and | end a command
// (a | between flags, as in "--python | --node", keeps the command: the
// README writes alternatives that way).
func shellWords(s string) [][]string {
	var cmds [][]string
	var cur []string
	var word strings.Builder
	inWord, quote := false, rune(0)
	flush := func() {
		if inWord {
			cur = append(cur, word.String())
			word.Reset()
			inWord = false
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			flush()
			cmds = append(cmds, cur)
			return cmds
		case r == ' ' || r == '\t':
			flush()
		case r == ';' || r == '&' || r == '|':
			flush()
			next := strings.TrimLeft(string(rs[i+1:]), "&| ")
			if r == '|' && strings.HasPrefix(next, "-") {
				continue // an alternative flag of the same command
			}
			cmds = append(cmds, cur)
			cur = nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return append(cmds, cur)
}

// invocation is one `docket ...` command the README shows.
type invocation struct {
	line  string
	words []string // after "docket"
}

func readmeInvocations(t *testing.T) []invocation {
	var out []invocation
	for _, line := range readmeCode(t) {
		for _, words := range shellWords(line) {
			// environment assignments before the command (DOCKET_CPUPROFILE=/tmp/p docket load)
			for len(words) > 0 && envAssignRE.MatchString(words[0]) {
				words = words[1:]
			}
			if len(words) == 0 || (words[0] != "docket" && words[0] != "bin/docket") {
				continue
			}
			out = append(out, invocation{line: line, words: words[1:]})
		}
	}
	return out
}

// helpFlags runs `docket ARGS -h` and returns the flags its help lists.
func helpFlags(args ...string) (map[string]bool, string) {
	var out, errOut bytes.Buffer
	cli.Main(append(args, "-h"), &out, &errOut)
	text := out.String() + errOut.String()
	flags := map[string]bool{}
	for _, m := range helpFlagRE.FindAllStringSubmatch(text, -1) {
		flags[strings.TrimPrefix(m[1], "-")] = true
	}
	return flags, text
}

// subcommands are the commands whose next word names what they do.
var subcommands = map[string][]string{
	"docs":   {"generate", "serve", "render-worker"},
	"source": {"freshness"},
}

// TestREADMECommandsExist keeps the README's commands true: every `docket
// ...` it shows, in a code block or inline, names a command docket has and
// only flags that command's parser accepts (its -h lists them, or they are
// the common flags of `docket --help`); every `make X` names a Makefile
// target.
func TestREADMECommandsExist(t *testing.T) {
	_, usage := helpFlags()
	_, section, ok := strings.Cut(usage, "Common flags:")
	if !ok {
		t.Fatalf("docket -h has no common flags:\n%s", usage)
	}
	common := map[string]bool{}
	for _, m := range commonFlagRE.FindAllStringSubmatch(section, -1) {
		common[m[1]] = true
	}
	anyFlag := maps.Clone(common) // every flag some command accepts
	for _, cmd := range append(usageCommands(usage), []string{"load", "--plan", "x"}) {
		flags, _ := helpFlags(cmd...)
		maps.Copy(anyFlag, flags)
	}
	invs := readmeInvocations(t)
	if len(invs) < 20 {
		t.Fatalf("found only %d docket invocations in the README", len(invs))
	}
	t.Logf("%d docket invocations in the README", len(invs))
	for _, inv := range invs {
		if len(inv.words) == 0 {
			continue
		}
		cmd := []string{inv.words[0]}
		rest := inv.words[1:]
		if strings.HasPrefix(cmd[0], "-") {
			if cmd[0] != "--help" && cmd[0] != "-h" && cmd[0] != "--version" {
				t.Errorf("README: %q: %s is no command", inv.line, cmd[0])
			}
			continue
		}
		if subs, ok := subcommands[cmd[0]]; ok && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			if !slices.Contains(subs, rest[0]) {
				t.Errorf("README: %q: docket %s has no subcommand %q", inv.line, cmd[0], rest[0])
				continue
			}
			cmd, rest = append(cmd, rest[0]), rest[1:]
		}
		if cmd[len(cmd)-1] == "render-worker" {
			continue // a worker process that reads frames from stdin: no help to ask
		}
		args := cmd
		if cmd[0] == "load" && slices.Contains(rest, "--plan") {
			args = []string{"load", "--plan", "x"} // a shard's flags (runShard's parser)
		}
		flags, help := helpFlags(args...)
		if strings.Contains(help, "unknown command") || strings.Contains(help, "unknown subcommand") {
			t.Errorf("README: %q: docket has no command %q", inv.line, strings.Join(cmd, " "))
			continue
		}
		for _, w := range rest {
			w = strings.Trim(w, "[]")
			if !strings.HasPrefix(w, "-") || w == "-" || negativeNumberRE.MatchString(w) {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if !flags[name] && !common[name] {
				t.Errorf("README: %q: docket %s has no flag %s (its -h lists %v)", inv.line, strings.Join(cmd, " "), w, slices.Sorted(maps.Keys(flags)))
			}
		}
	}

	// A flag named outside a full invocation (`--full-refresh`, `--wait 10m`)
	// must be one that some docket command accepts.
	for _, code := range readmeCode(t) {
		if strings.Contains(code, "docket-worker") {
			continue // its own flags (--versions)
		}
		for _, m := range looseFlagRE.FindAllStringSubmatch(code, -1) {
			if !anyFlag[m[1]] {
				t.Errorf("README: %q: no docket command has a flag --%s", code, m[1])
			}
		}
	}

	mk, err := os.ReadFile(filepath.Join(repo, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range makeTargetRE.FindAllStringSubmatch(string(mk), -1) {
		targets[m[1]] = true
	}
	for _, line := range readmeCode(t) {
		for _, m := range makeCallRE.FindAllStringSubmatch(line, -1) {
			if !targets[m[1]] {
				t.Errorf("README: %q: the Makefile has no target %q", line, m[1])
			}
		}
	}
}

// TestREADMELinks checks that every link inside the README (#anchor) names
// one of its headings, as GitHub makes anchors (lower case, punctuation but
// hyphens dropped, spaces as hyphens), and that every relative file link
// names a file of the repository.
func TestREADMELinks(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		h = anchorDropRE.ReplaceAllString(h, "")
		anchors[strings.ReplaceAll(h, " ", "-")] = true
	}
	links := linkRE.FindAllStringSubmatch(string(b), -1)
	if len(links) < 10 {
		t.Fatalf("found only %d links in the README", len(links))
	}
	for _, m := range links {
		target := m[1]
		switch {
		case strings.HasPrefix(target, "#"):
			if !anchors[target[1:]] {
				t.Errorf("README links to %s, which no heading makes", target)
			}
		case strings.Contains(target, "://"):
		default:
			if _, err := os.Stat(filepath.Join(repo, strings.SplitN(target, "#", 2)[0])); err != nil {
				t.Errorf("README links to %s: %v", target, err)
			}
		}
	}
}

// TestREADMENamesExist checks the README's pointers into the code: every
// test it names (TestJaffleShop, ...) is a test function of the
// repository, and every repository path in its code (loader/..., macros/...)
// is a file or folder.
func TestREADMENamesExist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(repo, "loader"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, m := range testFuncRE.FindAllStringSubmatch(string(src), -1) {
			tests[m[1]] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	named := testNameRE.FindAllString(string(b), -1)
	if len(named) < 10 {
		t.Fatalf("the README names only %d tests", len(named))
	}
	for _, name := range named {
		if !tests[name] {
			t.Errorf("the README names %s, which no test file of loader/ defines", name)
		}
	}
	for _, code := range readmeCode(t) {
		for _, f := range strings.Fields(code) {
			if !repoPathRE.MatchString(f) {
				continue
			}
			if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
				t.Errorf("the README names %s: %v", f, err)
			}
		}
	}
}

// usageCommands lists the commands `docket --help` names, each with its
// subcommand where it has them (docs generate, source freshness).
func usageCommands(usage string) [][]string {
	var cmds [][]string
	for _, m := range usageLineRE.FindAllStringSubmatch(usage, -1) {
		names := append([]string{m[1]}, strings.Fields(strings.ReplaceAll(m[2], "|", " "))...)
		if subs, ok := subcommands[m[1]]; ok {
			for _, sub := range subs {
				if sub != "render-worker" {
					cmds = append(cmds, []string{m[1], sub})
				}
			}
			continue
		}
		for _, n := range names {
			cmds = append(cmds, []string{n})
		}
	}
	return cmds
}
