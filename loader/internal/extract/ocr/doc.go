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
// default OCR engine mode.
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
// Indices: OCRWord.Block, Paragraph and Line are 0-based counters over the
// whole page in Tesseract's reading order (not restarted per parent), so
// ordering by (Block, Paragraph, Line, Seq) gives reading order.
//
// Threads: Tesseract uses OpenMP; the loader starts workers with
// OMP_THREAD_LIMIT=1 (read when the library loads, so it must be in the
// process environment) and gets parallelism from processes.
package ocr
