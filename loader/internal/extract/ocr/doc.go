// Package ocr recognises text on page images with Tesseract. It takes grey
// pixels (or a PDF/image document rendered through MuPDF at ocr.dpi) and
// produces a PageResult per page: every word with its pixel box,
// confidence and block/paragraph/line indices, the page text rebuilt in
// reading order without low-confidence words, its paragraphs with code
// point offsets, the mean word confidence and a review reason when that
// mean is under opts.OCRReviewBelow.
//
// Binding: a small cgo binding to Tesseract's C API (tesseract/capi.h),
// not github.com/otiai10/gosseract/v2. gosseract v2.4.1 re-runs recognition
// for every Text(), HOCRText() and GetBoundingBoxes*() call (text plus
// word boxes would cost two or three passes per page), defaults to single
// block segmentation, does not free the strings Tesseract returns, and
// redirects the process' stderr while initialising, which is unsafe with
// other goroutines. Through the C API a page costs exactly one Recognize;
// words, confidences, boxes and the block/paragraph/line structure are all
// read from one result iterator, and every string is freed with
// TessDeleteText. The engine is created once per worker process and reused
// (TessBaseAPIClear between pages), with PSM_AUTO segmentation and the
// default OCR engine mode. Tesseract and leptonica are opened with dlopen
// when the first engine is made (dl.h, dl.c), not linked: linked, their ~50
// dependent libraries made every docket process start in 35 ms instead of
// 18, and docket could not start at all where Tesseract is missing; now
// only OCR needs it, and says so. The executable stands in for one
// leptonica function, pixWriteMem (linecodec.go): while a page is
// recognised, the line images Tesseract passes its LSTM reader are stored
// as raw SPIX instead of PNG, the same pixels without zlib.
//
// Preprocessing, measured with tools/eval-ocr on the 12 corpus scans
// (bag-of-words F1, word confidence cut 60): deskew with leptonica's
// pixFindSkewAndDeskew, on a Pix built from the grey buffer, is kept: mean
// F1 0.8437 -> 0.8444 and mean confidence 85.0 -> 85.2 on pages skewed only
// 1.5 degrees (it helps three of the crooked pages, costs one), and it
// straightens larger skews that Tesseract does not absorb (the tests rotate
// a page 2.5 degrees). Binarization stays Tesseract's own Otsu: leptonica's
// adaptive Otsu (thresholding_method 1) moved the mean F1 by +0.002 but was
// worse on 4 pages and lowered mean confidence by 1.9; Sauvola (2) lost
// 0.09 F1. Leptonica never decodes files here: with go-fitz linked, MuPDF's
// static libjpeg v9 shadows the system libjpeg-turbo and leptonica's JPEG
// reading fails, so images arrive as pixels.
//
// Second reading: the page is recognised once, as a whole. Afterwards every
// text line holding a word under opts.OCRMinWordConf (those words are left
// out of the page text) is cropped from the deskewed page with a 4 px
// margin, scaled 2x, given a white border and recognised again on its own
// in single-line mode (PSM 7). New and old words are matched by horizontal
// overlap; a group holding a low-confidence word takes the new reading when
// its weakest word is surer than the old group's weakest, and when both
// readings spell the same characters the old words keep their text and
// boxes, and the two agreeing confidences a and b are combined as
// independent evidence, 100-(100-a)(100-b)/100 (taking only the larger
// one left p08 a hair under the CLI: "Dolorem" read at 57 and 49, "v" at
// 26 and 58). Vertical lines (taller than wide, three characters or more)
// are skipped. Words' confidences in staging.ocr_words, and the page mean,
// are those of the reading kept. On the 12 corpus scans this took the mean
// F1 from 0.8444 to 0.8527 and lifted the five pages that were under the
// plain CLI above it (p00 0.556 -> 0.608, p05 0.9839 -> 0.9893, p06 0.950
// -> 0.963, p08 0.988 -> 0.995, p09 0.615 -> 0.622) for about 12% more
// OCR time (bench-ocr). Measured and not kept: the larger confidence
// instead of the combination on agreement (mean 0.8532, p08 under the
// CLI by 0.00001); single words in PSM 8 (mean 0.8442 at scale 1, 0.8479 at 2x,
// two pages under the CLI), words in PSM 7 (0.8551 but four pages under);
// lines at scale 1 (0.8447, four under); taking new readings word by word
// without grouping (merged "Smarter Chemistry" into one word).
//
// Orientation: a page is read as it comes; OSD (orientation and script
// detection) runs only when the first reading is not plainly upright text
// (see readOriented in orient.go). Running OSD first on every page cost
// 0.3-0.8 CPU s per corpus scan, a third of the page's recognition.
//
// Inverted lines: Tesseract retries every weak line on the inverted image
// (white on black) when tessedit_do_invert is on, its default. With the
// second reading on, it stays off in both readings: a line printed white on
// black reads as weak words, so it is read again, and lineCrop turns its
// crop dark-on-light first (mean grey under the middle). Tesseract's own
// retry read nearly every weak line twice (they are weak) and kept the
// inverted reading only where the line really was inverted: with it in the
// second reading, p00's weak lines cost 2.6 CPU s, without it 1.7, and the
// F1 stayed or rose on every corpus scan (p00 0.6093 -> 0.6116, p05 0.9893
// -> 0.9911; p01's white-on-black line still read, 0.9402). In the first
// reading it cost p00 2.3 s instead of 1.3.
//
// Measured and not kept (ocr9, 8 scans with weak lines): all weak lines of
// a page stacked into one image and read in one call (PSM 6): no CPU saved
// (Tesseract's cost is per line, not per call: 23.3 vs 23.1 s) and p00 lost
// 0.058 F1 (0.050 in PSM 4); PSM 13 (raw line, no layout analysis): 5 %
// less CPU, p00 -0.041, p06 -0.014; lines at 1.5x: p00 -0.039; telling
// Tesseract 300 dpi or none for the 2x crops, textord_disable_pitch_test:
// no change.
//
// Indices: OCRWord.Block, Paragraph and Line are 0-based counters over the
// whole page in Tesseract's reading order (not restarted per parent), so
// ordering by (Block, Paragraph, Line, Seq) gives reading order.
//
// Threads: Tesseract uses OpenMP; the loader starts workers with
// OMP_THREAD_LIMIT=1 (read when the library loads, so it must be in the
// process environment) and gets parallelism from processes.
package ocr
