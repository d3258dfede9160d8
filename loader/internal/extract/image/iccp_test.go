package image

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	goimage "image"
	"image/color"
	"image/png"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/ocr"
)

// linearRGBProfile is a minimal ICC v2 RGB display profile: sRGB's
// primaries (D50-adapted) with a linear tone curve (gamma 1.0), so that
// its pixels differ from sRGB's.
func linearRGBProfile() []byte {
	s15 := func(b []byte, v float64) []byte { return binary.BigEndian.AppendUint32(b, uint32(int32(v*65536+0.5))) }
	xyz := func(x, y, z float64) []byte { return s15(s15(s15([]byte("XYZ \x00\x00\x00\x00"), x), y), z) }
	curv := append([]byte("curv\x00\x00\x00\x00"), 0, 0, 0, 1, 1, 0, 0, 0) // one entry: gamma 1.0, padded
	tags := []struct {
		sig  string
		data []byte
	}{
		{"wtpt", xyz(0.9642, 1, 0.8249)},
		{"rXYZ", xyz(0.4361, 0.2225, 0.0139)},
		{"gXYZ", xyz(0.3851, 0.7169, 0.0971)},
		{"bXYZ", xyz(0.1431, 0.0606, 0.7141)},
		{"rTRC", curv}, {"gTRC", curv}, {"bTRC", curv},
	}
	off := 128 + 4 + 12*len(tags)
	var table, data []byte
	table = binary.BigEndian.AppendUint32(table, uint32(len(tags)))
	for _, tg := range tags {
		table = append(table, tg.sig...)
		table = binary.BigEndian.AppendUint32(table, uint32(off+len(data)))
		table = binary.BigEndian.AppendUint32(table, uint32(len(tg.data)))
		data = append(data, tg.data...)
	}
	head := make([]byte, 128)
	binary.BigEndian.PutUint32(head[0:], uint32(off+len(data)))
	binary.BigEndian.PutUint32(head[8:], 0x02100000)
	copy(head[12:], "mntrRGB XYZ ")
	copy(head[36:], "acsp")
	copy(head[68:], xyz(0.9642, 1, 0.8249)[8:])
	return append(append(head, table...), data...)
}

// withICCP returns a PNG file's bytes with an iCCP chunk of profile
// inserted after IHDR.
func withICCP(file, profile []byte) []byte {
	const ihdrEnd = 8 + 12 + 13
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(profile)
	w.Close()
	body := append([]byte("linear\x00\x00"), z.Bytes()...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	chunk = append(append(chunk, "iCCP"...), body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append(append([]byte{}, file[:ihdrEnd]...), chunk...)
	return append(out, file[ihdrEnd:]...)
}

// TestPNGWithAColourProfileAsMuPDFRendersIt: a PNG with an embedded colour
// profile gets the grey pixels MuPDF gives it (converted through the
// profile), as before 0bcce0c; Go's decoder, which ignores the profile,
// gave pixels up to 69 grey levels off for this one.
func TestPNGWithAColourProfileAsMuPDFRendersIt(t *testing.T) {
	src := loadScan(t)
	b := src.Bounds()
	rgb := goimage.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := color.GrayModel.Convert(src.At(x, y)).(color.Gray).Y
			rgb.SetNRGBA(x, y, color.NRGBA{v, v / 2, 255 - v, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, rgb); err != nil {
		t.Fatal(err)
	}
	data := withICCP(withPHYs(t, buf.Bytes(), 11811), linearRGBProfile())
	p, cfg := writePNG(t, data)
	img, _, ok := decodePNG(p, cfg)
	if !ok {
		return // MuPDF renders it, as it always did
	}
	want, _, _, _ := mupdfGrey(t, p, cfg)
	got, _, _ := ocr.Gray(img)
	diff, maxd := greyDiff(got, want)
	if diff > 0 || len(got) != len(want) {
		t.Errorf("decoded in Go, ignoring the profile: %d of %d pixels differ from MuPDF's (by up to %d)", diff, len(want), maxd)
	}
}
