package text

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
)

const vttFixture = "WEBVTT - ship's log\n\nNOTE written by hand\nspanning two lines\n\nSTYLE\n::cue { color: yellow }\n\n" +
	"intro\n00:00:01.000 --> 00:00:03.500 align:start position:10%\n<v Anna>Welcome aboard the <i>Northern Star</i>.\n\n" +
	"00:00:03.600 --> 00:00:05.000\n<v Anna>We sail at <00:00:04.200>noon.\n\n" +
	"00:00:05.100 --> 00:00:07.000\n<v.loud Ben>Cranes &amp; cargo first!\n\n" +
	"3\n00:00:12.000 --> 00:00:14.000\nAfter the pause:\nnew paragraph.\n"

const srtFixture = "1\r\n00:00:01,000 --> 00:00:02,500\r\n{\\an8}<i>Rain on the deck.</i>\r\n\r\n" +
	"2\r\n00:00:02,600 --> 00:00:04,000\r\nThe captain waits\r\nby the bridge.\r\n\r\n" +
	"3\r\n00:01:00,000 --> 00:01:02,000\r\n- Who's there?\r\n- Only me.\r\n"

// TestSubtitles: WebVTT and SRT land as their spoken text, cues joined into
// paragraphs split at pauses, with no cue numbers, identifiers, timings,
// settings, notes, styles or markup.
func TestSubtitles(t *testing.T) {
	for _, c := range []struct{ name, typ, data, want string }{
		{"log.vtt", detect.WebVTT, vttFixture, "Anna: Welcome aboard the Northern Star. We sail at noon. Ben: Cranes & cargo first!\n\nAfter the pause: new paragraph."},
		{"rain.srt", detect.SRT, srtFixture, "Rain on the deck. The captain waits by the bridge.\n\n- Who's there? - Only me."},
		{"noext-subs", detect.SRT, srtFixture, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			info, _ := detect.DetectBytes(c.name, []byte(c.data))
			if info.Type != c.typ {
				t.Fatalf("detected %q, want %q", info.Type, c.typ)
			}
			res, err := ExtractBytes(context.Background(), []byte(c.data), info, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Pages[0].Text
			if c.want != "" && text != c.want {
				t.Errorf("text %q\nwant %q", text, c.want)
			}
			if regexp.MustCompile(`-->|\d\d:\d\d|^\d+$|<|\{\\|NOTE|STYLE|intro`).MatchString(text) {
				t.Errorf("timings, numbers or markup left: %q", text)
			}
			extracttest.Golden(t, "subtitles-"+c.name, res, err)
		})
	}
}

// TestLaTeX: LaTeX lands as text without commands; sections are titles,
// items list items, \title/\author metadata; \input is followed inside
// the document's folder only.
func TestLaTeX(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "paper")
	writeFile(t, filepath.Join(dir, "main.tex"), `% A comment line
\documentclass[11pt]{article}
\usepackage[utf8]{inputenc}
\newcommand{\ship}{\textsc{Northern Star}}
\title{Harbour Cranes: A Study}
\author{Ann Example \and Bo Sample}
\begin{document}
\maketitle
\section{Introduction}\label{sec:intro}
Cranes lift \textbf{containers} from ships~\cite{smith}. The load is
50\,t on average---sometimes more (see Section~\ref{sec:intro}). % trailing
Caf\'e D\"urer na\"{\i}ve \ss{} 100\% done.

\subsection*{Types}
\begin{itemize}
  \item Gantry cranes
  \item Mobile cranes, with \emph{rubber} tyres
\end{itemize}
\input{chapters/ops}
\input{../secret}
\include{missing}
\begin{tabular}{|l|r|}
\hline
Type & Count \\
Gantry & 12 \\
\end{tabular}
\begin{verbatim}
raw \text stays
\end{verbatim}
\end{document}
`)
	writeFile(t, filepath.Join(dir, "chapters", "ops.tex"), "\\section{Operations}\nOperators work in ``shifts'' of 8 hours.\n")
	writeFile(t, filepath.Join(root, "secret.tex"), "\\section{Secret}\nOutside the folder.\n")
	p := filepath.Join(dir, "main.tex")
	info, err := detect.Detect(p)
	if err != nil || info.Type != detect.LaTeX {
		t.Fatalf("detected %+v %v", info, err)
	}
	res, err := Extract(context.Background(), p, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Pages[0].Text
	for _, w := range []string{"Cranes lift containers from ships.", "Café Dürer naïve ß 100% done.", "Operators work in “shifts” of 8 hours.", "Type\tCount\nGantry\t12", "raw \\text stays"} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in %q", w, text)
		}
	}
	for _, w := range []string{"Secret", "\\section", "\\textbf", "sec:intro", "smith", "Northern"} {
		if strings.Contains(text, w) {
			t.Errorf("%q left in %q", w, text)
		}
	}
	if res.Metadata.Title != "Harbour Cranes: A Study" || res.Metadata.Author != "Ann Example, Bo Sample" {
		t.Errorf("metadata %+v", res.Metadata)
	}
	if len(res.Warnings) != 2 {
		t.Errorf("warnings %q, want the ../ input and the missing include", res.Warnings)
	}
	extracttest.Golden(t, "latex", res, err)
	// A .tex without \documentclass is a fragment: still text, inputs not
	// followed from memory (a review reason says so).
	frag := []byte("\\section{Only}\nA fragment \\input{x}.\n")
	fi, _ := detect.DetectBytes("frag.tex", frag)
	fres, err := ExtractBytes(context.Background(), frag, fi, document.Options{})
	if err != nil || fi.Type != detect.LaTeX || fres.Elements[0].Category != document.Title || len(fres.Warnings) != 0 ||
		len(fres.Reviews) != 1 || fres.Reviews[0].Code != document.ReviewIncludesMissing || !strings.Contains(fres.Reviews[0].Message, "(\\input/\\include: x)") {
		t.Errorf("fragment: %+v %v %+v %q %v", fi, err, fres.Elements, fres.Warnings, fres.Reviews)
	}
}

// TestEncodingGolden keeps the EBCDIC and implausible-decoding outcomes as
// golden files.
func TestEncodingGolden(t *testing.T) {
	text := "Welcome aboard! The manifest [rev 2] lists 14 crates.\nCheck the seals! Report damage to the purser.\n"
	for _, c := range []struct {
		name string
		data []byte
		enc  string
	}{
		{"ebcdic037", ebcdic(t, text, false), ""},
		{"ebcdic500", ebcdic(t, text, true), ""},
		{"latin1-as-cp1251", []byte("Sch\xf6ne Gr\xfc\xdfe aus K\xf6ln, M\xfcnchen und D\xfcsseldorf: die B\xe4ckerei, die Stra\xdfe, das M\xe4dchen und die H\xfctte.\n"), "windows-1251"},
	} {
		info, _ := detect.DetectBytes(c.name+".txt", c.data)
		if c.enc != "" {
			info.Encoding = c.enc
		}
		res, err := ExtractBytes(context.Background(), c.data, info, document.Options{})
		extracttest.Golden(t, "encoding-"+c.name, res, err)
	}
}

// TestLaTeXFootnoteApart: a footnote's text stays apart from the word it
// follows (it was glued to it: "everCounted at the gate..").
func TestLaTeXFootnoteApart(t *testing.T) {
	src := "\\begin{document}\nMore containers than ever\\footnote{Counted at the gate.}. Then a note\\footnote[3]{Numbered.} here.\n\\end{document}\n"
	res, err := ExtractBytes(t.Context(), []byte(src), detect.Info{Type: detect.LaTeX}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Pages[0].Text, "More containers than ever (Counted at the gate.). Then a note (Numbered.) here."; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// writeFile writes s to p, making its folder.
func writeFile(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRSTAndOrgIncludesWarned: an include directive of reStructuredText
// or Org is not followed, and a warning names the file (its line was
// kept as text with no word that the included file was not read).
func TestRSTAndOrgIncludesWarned(t *testing.T) {
	for name, src := range map[string]string{
		"doc.rst": ".. include:: chapter.rst\n\nTitle\n=====\n\nSome words.\n",
		"doc.org": "#+INCLUDE: \"chapter.org\"\n\n* Title\n\nSome words.\n",
	} {
		res := run(t, name, []byte(src))
		want := map[string]string{"doc.rst": "include of chapter.rst not followed: docket reads a reStructuredText file alone",
			"doc.org": `include of "chapter.org" not followed: docket reads an Org file alone`}[name]
		if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
			t.Errorf("%s: warnings %q, want one starting %q", name, res.Warnings, want)
		}
		// the included text is missing: a review, not only a warning
		if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewIncludesMissing || !strings.Contains(res.Reviews[0].Message, "chapter.") ||
			!strings.Contains(res.Reviews[0].Message, "that docket does not read") {
			t.Errorf("%s: reviews %v", name, res.Reviews)
		}
	}
	if res := run(t, "plain.rst", []byte("Title\n=====\n\nSome words about include:: nothing.\n")); len(res.Warnings) != 0 {
		t.Errorf("no directive: warnings %q", res.Warnings)
	}
}
