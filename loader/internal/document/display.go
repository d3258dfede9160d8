package document

import "strings"

// AttachmentSep separates a container and its attachment in a displayed
// path: "mail.eml › invoice.pdf".
const AttachmentSep = " › "

// DisplayPath is how a document's path is shown to a person. rel is its
// rel_path; ancestors are the rel_paths of the documents that contain it,
// outermost first (none for a file of a source folder). The loader names
// an attachment parent rel_path + "#" + name; it is shown as the parent's
// display path, " › " and the name, so it cannot pass for a top-level
// file named "mail.eml#invoice.pdf" (shown as is). A "›" inside a name is
// shown as \u203a, so a file named "mail.eml › invoice.pdf" cannot pass
// for an attachment either.
func DisplayPath(rel string, ancestors []string) string {
	esc := func(s string) string { return strings.ReplaceAll(s, "›", `\u203a`) }
	if len(ancestors) == 0 {
		return esc(rel)
	}
	var b strings.Builder
	b.WriteString(esc(ancestors[0]))
	prev := ancestors[0]
	for _, cur := range append(ancestors[1:len(ancestors):len(ancestors)], rel) {
		name := cur
		if strings.HasPrefix(cur, prev+"#") {
			name = cur[len(prev)+1:]
		}
		b.WriteString(AttachmentSep)
		b.WriteString(esc(name))
		prev = cur
	}
	return b.String()
}

// MaxDisplayDepth bounds the ancestor chain DisplayPathOf follows (the
// loader's max_attachment_depth is far smaller).
const MaxDisplayDepth = 32

// DisplayPathOf is DisplayPath for document id, with its rel_path and
// parent's id from lookup (ok false: not known). A parent that cannot be
// found ends the chain there.
func DisplayPathOf(id string, lookup func(id string) (rel, parent string, ok bool)) string {
	rel, parent, ok := lookup(id)
	if !ok {
		return ""
	}
	var anc []string
	for i := 0; parent != "" && i < MaxDisplayDepth; i++ {
		prel, pp, ok := lookup(parent)
		if !ok {
			break
		}
		anc = append([]string{prel}, anc...)
		parent = pp
	}
	return DisplayPath(rel, anc)
}
