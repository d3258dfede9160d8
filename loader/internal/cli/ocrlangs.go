package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
)

// missingOCRLanguages is the warning for ocr.languages that have no
// model installed (found: the *.traineddata names tessLanguages sees),
// "" when all have one or no model folder is found at all (nothing to
// judge by). Tesseract starts with the languages it can load and says so
// only on the worker's stderr, so a missing one was read as if absent:
// scans in it OCR'd with the others, with no word to the user.
func missingOCRLanguages(p *project.Project, found []string) string {
	if !p.OCREnabled() || len(found) == 0 {
		return ""
	}
	var missing, pkgs []string
	for _, l := range p.OCR.Languages {
		if !slices.Contains(found, l) {
			missing = append(missing, l)
			pkgs = append(pkgs, "tesseract-ocr-"+strings.ReplaceAll(strings.ToLower(l), "_", "-"))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: ocr.languages %s: no model installed (found %s); OCR reads without it (Debian: apt-get install %s)",
		p.OCR.LanguagesAt(), strings.Join(missing, ", "), strings.Join(found, ", "), strings.Join(pkgs, " "))
}
