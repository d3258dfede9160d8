package document

import "golang.org/x/text/unicode/norm"

// Composed is s in NFC, s itself when it is so already (nearly every
// document's text is: it is only scanned). A document written decomposed
// ("a" + U+0308 for "ä", as macOS file names and text pasted from them
// are; pip's AUTHORS.txt writes "Martin Häcker" so, Node.js's changelogs
// "Dominykas Blyžė") would land text that a typed name does not match in
// SQL. Extractors
// compose what they read, after its markup: NFC of the source could join a
// combining mark to the ">" before it (">" + U+0338 is "≯").
func Composed(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// Compose puts the metadata's texts (title, author, language and the Extra
// values) in NFC.
func (m *Metadata) Compose() {
	m.Title = Composed(m.Title)
	m.Author = Composed(m.Author)
	m.Language = Composed(m.Language)
	for k, v := range m.Extra {
		m.Extra[k] = Composed(v)
	}
}
