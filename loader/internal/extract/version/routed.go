package version

// routed is every detected type an extractor is registered for (package
// extract's routes; a test there keeps the two lists equal). The loader
// reads it without linking any extractor: a content an older docket
// quarantined unsupported_type is extracted again once its type has an
// extractor (an ODP before office/10), instead of waiting silently for
// --retry-quarantined.
var routed = map[string]bool{
	"pdf": true, "png": true, "jpeg": true, "tiff": true, "bmp": true, "gif": true, "webp": true, "heic": true,
	"docx": true, "pptx": true, "xlsx": true, "odt": true, "odp": true, "ods": true, "odg": true, "odc": true, "epub": true, "eml": true,
	"zip": true, "tar": true, "tar.gz": true, "gzip": true, "tar.bz2": true, "bzip2": true, "tar.xz": true, "xz": true,
	"text": true, "markdown": true, "rst": true, "org": true, "json": true, "ndjson": true, "xml": true,
	"webvtt": true, "srt": true, "ics": true, "latex": true, "html": true, "csv": true, "tsv": true,
}

// Routed reports whether a detected type has an extractor.
func Routed(typ string) bool { return routed[typ] }

// RoutedTypes lists the routed types (for the test that compares them
// with package extract's routes).
func RoutedTypes() []string {
	out := make([]string, 0, len(routed))
	for t := range routed {
		out = append(out, t)
	}
	return out
}
