// This file is part of docket's fork of go-trafilatura (see ../DOCKET.md);
// its bodies are upstream's createFallbackGenerators branches, moved.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
// http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// Package fallback registers go-trafilatura's built-in fallback
// extractors, go-shiori's readability and DOM Distiller, which run when
// the fallback is enabled without the caller's own candidates. Import it
// for its side effect; a program that gives its own candidates (docket's
// extraction worker) does not, and so does not link them.
package fallback

import (
	"github.com/go-shiori/dom"
	"github.com/go-shiori/go-readability"
	distiller "github.com/markusmobius/go-domdistiller"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

func init() {
	trafilatura.RegisterFallbacks(runReadability, runDistiller)
}

func runReadability(doc *html.Node, opts trafilatura.Options) (string, *html.Node) {
	result, _ := readability.FromDocument(doc, opts.OriginalURL)
	return "Readability", result.Node
}

func runDistiller(doc *html.Node, opts trafilatura.Options) (string, *html.Node) {
	clone := dom.Clone(doc, true)
	result, _ := distiller.Apply(clone, &distiller.Options{
		OriginalURL:    opts.OriginalURL,
		SkipPagination: true})
	if result == nil {
		return "", nil
	}
	return "Dom Distiller", result.Node
}
