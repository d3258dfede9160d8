package document

import "testing"

// TestDisplayPath: an attachment shows as parent › name (nested ones too);
// a top-level file named like an attachment never shows the same.
func TestDisplayPath(t *testing.T) {
	docs := map[string][2]string{ // id → rel_path, parent id
		"mail":   {"in/mail.eml", ""},
		"pdf":    {"in/mail.eml#invoice.pdf", "mail"},
		"zip":    {"in/mail.eml#a#b.zip", "mail"},
		"inner":  {"in/mail.eml#a#b.zip#x/y.txt", "zip"},
		"fake":   {"in/mail.eml#invoice.pdf", ""},
		"fake2":  {"in/mail.eml › invoice.pdf", ""},
		"orphan": {"gone.eml#c.txt", "missing"},
	}
	lookup := func(id string) (string, string, bool) { d, ok := docs[id]; return d[0], d[1], ok }
	for id, want := range map[string]string{
		"mail":   "in/mail.eml",
		"pdf":    "in/mail.eml › invoice.pdf",
		"zip":    "in/mail.eml › a#b.zip",
		"inner":  "in/mail.eml › a#b.zip › x/y.txt",
		"fake":   "in/mail.eml#invoice.pdf",
		"fake2":  `in/mail.eml \u203a invoice.pdf`,
		"orphan": "gone.eml#c.txt",
	} {
		if got := DisplayPathOf(id, lookup); got != want {
			t.Errorf("%s: got %q, want %q", id, got, want)
		}
	}
	if DisplayPathOf("pdf", lookup) == DisplayPathOf("fake", lookup) || DisplayPathOf("pdf", lookup) == DisplayPathOf("fake2", lookup) {
		t.Error("an attachment and a top-level file display the same")
	}
}
