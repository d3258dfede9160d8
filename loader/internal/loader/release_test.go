package loader

import (
	"fmt"
	"testing"
)

// release hands Execute its files in parts it can drop one by one: the
// same files in the same order, in arrays of their own (not the
// caller's, which a plan would keep alive to the end); a short list is
// used as it is.
func TestReleaseParts(t *testing.T) {
	files := make([]PlannedFile, 2*releasePart+5)
	for i := range files {
		files[i] = PlannedFile{DocID: fmt.Sprint(i), Action: ActNew}
	}
	parts := release(files)
	if len(parts) != 3 || len(parts[0]) != releasePart || len(parts[2]) != 5 {
		t.Fatalf("parts of %d, %d, %d files", len(parts[0]), len(parts[1]), len(parts[len(parts)-1]))
	}
	i := 0
	for _, p := range parts {
		for j := range p {
			if p[j].DocID != fmt.Sprint(i) {
				t.Fatalf("file %d is %s", i, p[j].DocID)
			}
			p[j] = PlannedFile{}
			if files[i].DocID != fmt.Sprint(i) {
				t.Fatalf("part %d shares the caller's array", i/releasePart)
			}
			i++
		}
	}
	short := files[:3]
	if p := release(short); len(p) != 1 || &p[0][0] != &short[0] {
		t.Fatal("a short list is copied")
	}
}

// takeTodo gives the files to execute away: Files keeps the others (the
// deleted ones the finish reads), in order, in an array of its own.
func TestTakeTodo(t *testing.T) {
	p := &Plan{Files: []PlannedFile{{DocID: "a", Action: ActNew}, {DocID: "b", Action: ActChanged}, {DocID: "c", Action: ActDeleted}, {DocID: "d", Action: ActKept}}}
	orig := p.Files
	todo := p.takeTodo()
	if len(todo) != 2 || todo[0].DocID != "a" || todo[1].DocID != "b" {
		t.Fatalf("todo %+v", todo)
	}
	if len(p.Files) != 2 || p.Files[0].DocID != "c" || p.Files[1].DocID != "d" || &p.Files[0] == &orig[2] {
		t.Fatalf("files left %+v", p.Files)
	}
	if ids := p.IDs(ActDeleted); len(ids) != 1 || ids[0] != "c" {
		t.Fatalf("deleted %v", ids)
	}
}
