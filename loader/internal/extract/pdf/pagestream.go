package pdf

import (
	"bytes"
	"io"
	"os"
	"strconv"
)

// The declared-count check for a file too large to be held in memory
// (over maxInMemory, opened by path): the same scan as declaredPages,
// streamed through a window of bounded size, so that a huge damaged file
// is checked too without costing its size in memory.

const (
	scanChunk = 1 << 20  // bytes read at a time
	scanCarry = 64       // bytes kept past a chunk's end: an object header cut there is read whole
	maxDict   = 16 << 20 // an object's dictionary longer than this is cut (a page tree node of ~1.8M kids)
)

// declaredPagesFile is declaredPages over the file at path, read chunk
// bytes at a time (scanChunk outside tests); err says why the file could
// not be read (a file removed or replaced since MuPDF opened it, a read
// error).
func declaredPagesFile(path string, chunk int) (count, objects int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	pages := map[int]bool{} // object number -> its last definition is a page
	counts := map[int]int{} // object number -> its last definition is a /Pages node with this /Count
	err = scanObjects(f, chunk, func(num int, _, dict []byte) {
		delete(pages, num)
		delete(counts, num)
		switch c, page := objKind(dict); {
		case page:
			pages[num] = true
		case c >= 0:
			counts[num] = c
		}
	})
	if err != nil {
		return 0, 0, err
	}
	for _, c := range counts {
		count = max(count, c)
	}
	return count, len(pages), nil
}

// scanObjects calls fn with every object definition read from r, in file
// order (each definition: the caller keeps the last of a number), with
// its generation and its dictionary as eachObject cuts it (up to its
// stream, its endobj or the next object's header, at most maxDict bytes).
// gen and dict are valid during the call only. Memory: a window of about chunk bytes, more only while
// one dictionary is longer.
func scanObjects(r io.Reader, chunk int, fn func(num int, gen, dict []byte)) error {
	var buf []byte
	eof := false
	pos := 0 // where the scan goes on in buf
	// more drops what is done (keeping buf[keep:]) and reads a chunk.
	more := func(keep int) error {
		buf = append(buf[:0], buf[keep:]...)
		pos = max(pos-keep, 0) // what was dropped before keep held no header
		n := len(buf)
		buf = append(buf, make([]byte, chunk)...)
		k, err := io.ReadFull(r, buf[n:])
		buf = buf[:n+k]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			eof, err = true, nil
		}
		return err
	}
	// complete reports whether a match ending at end cannot run on past
	// what was read.
	complete := func(end int) bool { return eof || end <= len(buf)-scanCarry }
	for {
		m := findHeader(buf[pos:])
		if m == nil || !complete(pos+m[1]) {
			if eof {
				return nil
			}
			keep := windowStart(buf, pos)
			if m != nil {
				keep = min(keep, pos+m[0]) // a header that may run on is kept whole
			}
			if err := more(keep); err != nil {
				return err
			}
			continue
		}
		hs, he := pos+m[0], pos+m[1]
		num, _ := strconv.Atoi(string(buf[pos+m[2] : pos+m[3]]))
		end, found := dictEnd(buf, he, complete)
		if !found && !eof && len(buf)-he < maxDict {
			if err := more(hs); err != nil {
				return err
			}
			continue
		}
		if !found {
			end = min(len(buf), he+maxDict)
		}
		fn(num, buf[pos+m[4]:pos+m[5]], buf[he:end])
		pos = end
	}
}

// dictEnd is where the dictionary after an object header ending at he
// ends in buf: the first of its stream, its endobj or the next object's
// header (found false when none is in buf, or the header may run on).
// The next header is looked for first, as eachObject finds it (in all
// that follows, not only before an endobj: "7 0 objendobj" is no
// header), and endobj and stream only before it: looked for in the rest
// of the window, an object without either read the whole window again
// (an 8 MB file of such objects took 151 s streamed, now 2.5 s).
func dictEnd(buf []byte, he int, complete func(int) bool) (end int, found bool) {
	end = len(buf)
	if m := findHeader(buf[he:]); m != nil {
		if !complete(he + m[1]) {
			return 0, false
		}
		end, found = he+m[0], true
	}
	for _, kw := range [][]byte{[]byte("endobj"), []byte("stream")} {
		if k := bytes.Index(buf[he:end], kw); k >= 0 {
			end, found = he+k, true
		}
	}
	return end, found
}

// findHeader is objRe.FindSubmatchIndex(b): the first object header in
// b, nil when none. Go's regexp has no literal prefix to skip ahead with
// here and ran over every byte of a file's streams (~35 s for a 300 MB
// file); every header ends with "obj", so bytes.Index finds each
// candidate and the regexp runs only over the digits and white space
// before it and one byte either side. The same match: a header holds no
// "obj" before its own, so the first candidate that matches gives the
// leftmost match, and the slice starts at b's start (where ^ matches, as
// in b) or one byte before the header's run of digits and white space
// (the separator the regexp consumes, or a byte that is none).
func findHeader(b []byte) []int {
	for from := 0; ; {
		k := bytes.Index(b[from:], objWord)
		if k < 0 {
			return nil
		}
		k += from
		s := k // back over the run of digits and white space (it stops at the "j" of an "obj" before)
		for s > 0 && isHeaderByte(b[s-1]) {
			s--
		}
		if s > 0 {
			s--
		}
		if m := objRe.FindSubmatchIndex(b[s:min(len(b), k+4)]); m != nil {
			for i := range m {
				if m[i] >= 0 {
					m[i] += s
				}
			}
			return m
		}
		from = k + 3
	}
}

var objWord = []byte("obj")

// allHeaders is objRe.FindAllSubmatchIndex(data, -1) through findHeader
// (the in-memory scan, eachObject, ran the regexp over every byte as the
// streamed one did). Each search goes on from the last match's end, as
// the regexp's own does: the byte there follows "obj\b", so it is no
// digit, and ^ at the slice's start cannot begin a header there.
func allHeaders(data []byte) [][]int {
	var out [][]int
	for from := 0; ; {
		m := findHeader(data[from:])
		if m == nil {
			return out
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		out = append(out, m)
		from = m[1]
	}
}

// isHeaderByte: b can be inside an object header before its "obj" (a
// digit or the regexp's white space, \s: [\t\n\f\r ]).
func isHeaderByte(b byte) bool {
	return b >= '0' && b <= '9' || b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// windowStart is where the window kept for the next chunk starts: the
// last scanCarry bytes of buf (not before pos), moved back to just after
// a separator (a header is only found after one), by at most 4 KB.
func windowStart(buf []byte, pos int) int {
	k := max(pos, len(buf)-scanCarry)
	for back := 0; k > pos && back < 4096 && !isSep(buf[k-1]); back++ {
		k--
	}
	return k
}

func isSep(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0 || b == '>'
}
