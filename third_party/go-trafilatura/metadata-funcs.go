// This file is docket's (see DOCKET.md), not upstream's.

package trafilatura

import "errors"

// docket: the page's metadata cleans author names of emoji (gomoji) and the
// language classification names the text's language (RadhiFadlillah's
// whatlanggo). Both run only when the caller reads metadata (not with
// ContentOnly), but their packages initialised in every process linking
// this one: gomoji's emoji table ~1 MB, whatlanggo's profiles 0.35 MB of
// each docket extraction worker's start, which reads neither. A caller
// that reads metadata imports
// github.com/markusmobius/go-trafilatura/withmetadata, which registers
// them; without it such an extraction fails with errNoMetadata instead of
// giving metadata quietly different from upstream's.
var metadataFuncs struct {
	removeEmojis func(string) string
	detectLang   func(string) string // ISO 639-1 code
}

// RegisterMetadata sets the functions metadata and language
// classification use (see metadataFuncs); the withmetadata package calls it.
func RegisterMetadata(removeEmojis, detectLang func(string) string) {
	metadataFuncs.removeEmojis, metadataFuncs.detectLang = removeEmojis, detectLang
}

var errNoMetadata = errors.New("go-trafilatura: metadata and language classification need github.com/markusmobius/go-trafilatura/withmetadata imported (docket's fork, see its DOCKET.md), or ContentOnly")
