package render

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Template mistakes: where they are and what they say.

var macroErrRe = regexp.MustCompile(`in macro [A-Za-z0-9_]+ \([^()]+:\d+\):`)

// MacroRuntimeError is a failure inside a macro: the macro's file and line.
type MacroRuntimeError struct {
	File, Macro string
	Line        int
	Err         error
}

func (e *MacroRuntimeError) Error() string {
	rc := rootCause(e.Err.Error())
	root := cleanMsg(rc)
	if m := userMsgRe.FindString(e.Err.Error()); m != "" {
		root = m // kept delimited: runtimeErr's cleanMsg shows it whole
	} else if m := userMsgRe.FindString(rc); m != "" {
		root = m // a method's Python error, likewise
	}
	return fmt.Sprintf("in macro %s (%s:%d): %s", e.Macro, e.File, e.Line, root)
}

// UserError is a message a template raised itself
// (exceptions.raise_compiler_error): shown whole, never cut at a colon.
// gonja carries errors up as text, so the message travels between
// delimiters that userMsgRe finds.
type UserError struct{ Msg string }

func (e *UserError) Error() string { return "\x02" + e.Msg + "\x03" }

var userMsgRe = regexp.MustCompile("\x02([^\x03]*)\x03")

func (e *MacroRuntimeError) Unwrap() error { return e.Err }

func macroLine(err error) int {
	line := 1
	for _, m := range lineRe.FindAllStringSubmatch(err.Error(), -1) {
		if n, e := strconv.Atoi(m[1]); e == nil {
			line = n
		}
	}
	return line
}

// ownFramesEnd is where a rendered template's own error frames end: at the
// first frame of a macro it called (gonja's "Unable to execute macro" for a
// macro that passed an inner macro's error on, or the MacroRuntimeError text).
func ownFramesEnd(msg string) int {
	end := len(msg)
	for _, marker := range []string{"Unable to execute macro '", "in macro "} {
		if i := strings.Index(msg, marker); i >= 0 && i < end {
			end = i
		}
	}
	return end
}

func rootCause(msg string) string {
	if m := methodErrRe.FindStringSubmatch(msg); m != nil {
		switch {
		case strings.HasPrefix(m[2], "unknown method "):
			// a docket object (adapter, api, ...) without the method
			return fmt.Sprintf("%s() is not a method docket provides (unknown to this object)", m[1])
		case pyErrRe.MatchString(m[2]):
			// the method's own Python error, shown whole (never cut at a
			// colon): ValueError: list.remove(x): x not in list
			return (&UserError{Msg: m[2]}).Error()
		}
		return m[1] + "(): " + m[2]
	}
	if loc := asInPythonRe.FindStringIndex(msg); loc != nil {
		// a filter's Python error, shown whole (it may hold ": ")
		return (&UserError{Msg: msg[loc[0]:]}).Error()
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}

var (
	lineRe    = regexp.MustCompile(`at line (\d+)`)
	noiseRe   = regexp.MustCompile(`(?i)(unable to execute template|unable to execute controlStructure at line \d+|unable to render expression at line \d+|unable to evaluate function '[^']*'|unable to render condition at line \d+|failed to execute '[^']*')(: )?`)
	spacesRe  = regexp.MustCompile(`\s+`)
	reprNoise = regexp.MustCompile(`(ControlStructure|Output|Call|Name|String|GetAttribute)\([^)]*\)`)
)

// methodErrRe is a method's failed call (gonja's calls.go): its name, then
// the method's own error text to the end.
var (
	methodErrRe = regexp.MustCompile(`(?s)invalid call to method '([^']+)': (.*)$`)
	pyErrRe     = regexp.MustCompile(`^[A-Z][A-Za-z]*(Error|Exception|Warning): `)
	// asInPythonRe: the gonja fork's Python errors ("TypeError as in
	// Python (...)") to the end of the message
	asInPythonRe = regexp.MustCompile(`[A-Z][A-Za-z]*Error as in Python \(.*\)$`)
)

var undefRe = regexp.MustCompile(`Unable to evaluate name "([^"]+)"`)

func cleanMsg(s string) string {
	if m := userMsgRe.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	s = undefRe.ReplaceAllString(s, `undefined name "$1" (not a macro, variable or dbt context member)`)
	s = noiseRe.ReplaceAllString(s, "")
	s = spacesRe.ReplaceAllString(s, " ")
	return strings.TrimSpace(s)
}

// runtimeErr turns gonja's wrapped error chain into a positioned *Error:
// the innermost "at line N" wins; the message keeps only the root cause.
func (t *Template) runtimeErr(err error) *Error {
	msg := err.Error()
	line := 1
	// the template's own frames come first; a macro's frames (whose lines
	// are in the macro's file) follow from the first macro marker on
	for _, m := range lineRe.FindAllStringSubmatch(msg[:ownFramesEnd(msg)], -1) {
		if n, e := strconv.Atoi(m[1]); e == nil {
			line = n
		}
	}
	// root cause: the text after the last ": " that follows a node repr
	root := rootCause(msg)
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	if m := userMsgRe.FindStringSubmatch(msg); m != nil {
		root = "\x02" + m[1] + "\x03"
	}
	col := 1
	lines := strings.Split(t.src, "\n")
	if line-1 < len(lines) {
		l := lines[line-1]
		if i := strings.Index(l, "{"); i >= 0 {
			col = i + 1
		} else {
			col = len(l) - len(strings.TrimLeft(l, " \t")) + 1
		}
	}
	if all := macroErrRe.FindAllStringSubmatchIndex(msg, -1); len(all) > 0 {
		// an error inside a macro: name the macro's file and line
		last := all[len(all)-1]
		return &Error{Line: line, Col: col, Msg: msg[last[0]:last[1]] + " " + cleanMsg(root)}
	}
	return &Error{Line: line, Col: col, Msg: cleanMsg(root)}
}
