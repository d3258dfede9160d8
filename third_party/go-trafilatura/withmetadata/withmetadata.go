// This file is docket's (see ../DOCKET.md), not upstream's; the calls are
// upstream's, moved from metadata.go and utils-extractor.go.

// Package withmetadata registers what go-trafilatura's metadata and
// language classification use (gomoji, whatlanggo). Import it for its
// side effect in a program that reads ExtractResult.Metadata or sets
// TargetLanguage; docket's extraction worker (ContentOnly) does not, and so
// does not link them.
package withmetadata

import (
	"github.com/RadhiFadlillah/whatlanggo"
	"github.com/forPelevin/gomoji"
	trafilatura "github.com/markusmobius/go-trafilatura"
)

func init() {
	trafilatura.RegisterMetadata(gomoji.RemoveEmojis, func(text string) string {
		return whatlanggo.DetectLang(text).Iso6391()
	})
}
