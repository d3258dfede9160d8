package textproc

import "strings"

const lorem = `Records management is the supervision and administration of digital or paper records.
The committee reviewed the infor-
mation before the meeting. Each member received a copy of the draft report!
Did anyone object? Nobody did.

A second paragraph starts here and talks about retention schedules, legal holds and disposal.
Well-known practices apply.`

func sampleText(n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(lorem)
		b.WriteString("\n\n")
	}
	return b.String()[:n]
}
