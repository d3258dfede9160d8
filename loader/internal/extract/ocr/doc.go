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
// Preprocessing, kept because tools/eval-ocr measured it helping on the
// corpus scans: deskew with leptonica's pixFindSkewAndDeskew on a Pix built
// from the grey buffer. Binarization stays Tesseract's own Otsu: leptonica's
// adaptive Otsu and Sauvola (Tesseract's thresholding_method 1 and 2) did
// not do better. Leptonica never decodes files here: with go-fitz linked,
// MuPDF's static libjpeg v9 shadows the system libjpeg-turbo and
// leptonica's JPEG reading fails, so images arrive as pixels.
//
// Indices: OCRWord.Block, Paragraph and Line are 0-based counters over the
// whole page in Tesseract's reading order (not restarted per parent), so
// ordering by (Block, Paragraph, Line, Seq) gives reading order.
//
// Threads: Tesseract uses OpenMP; the loader starts workers with
// OMP_THREAD_LIMIT=1 (read when the library loads, so it must be in the
// process environment) and gets parallelism from processes.
package ocr
