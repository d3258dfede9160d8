// Package textproc holds docket's pure text functions: it takes strings
// (page or chunk text) and produces normalized text, chunks with code point
// offsets into the original text, MinHash signatures and LSH band keys,
// near-duplicate pairs, a language guess and quality statistics. Nothing here
// touches DuckDB or prints; the warehouse package wraps these functions as
// UDFs and the curated models call them.
package textproc
