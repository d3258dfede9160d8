package worker

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// fill sets every field reachable from v (structs, pointers, slices of two
// elements, maps of two entries) to a value that is not zero and differs
// from field to field.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := 0; i < 2; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d ü", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) * -7)
	case reflect.Uint8:
		v.SetUint(uint64(*n % 256))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	default:
		panic("fill: no case for " + v.Type().String())
	}
}

// TestCodecCarriesEveryField: a Request and a Response with every field
// set come back equal, so a field added to them (or to a document type a
// Result holds) and not carried by the codec fails here.
func TestCodecCarriesEveryField(t *testing.T) {
	n := 0
	var resp Response
	fill(reflect.ValueOf(&resp).Elem(), &n)
	got, err := RoundTripResponse(&resp)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, resp) {
		t.Errorf("response changed on the way:\n got %+v\nwant %+v", got, resp)
	}

	var req Request
	fill(reflect.ValueOf(&req).Elem(), &n)
	var e encoder
	e.request(&req)
	d, err := readFrame(bytes.NewReader(e.frame()))
	if err != nil {
		t.Fatal(err)
	}
	gotReq, err := d.request()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotReq, req) {
		t.Errorf("request changed on the way:\n got %+v\nwant %+v", gotReq, req)
	}
}

// gobRoundTrip is what the pipe did before the codec: what docket got
// from a worker's gob-encoded Response.
func gobRoundTrip(t *testing.T, resp *Response) Response {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(resp); err != nil {
		t.Fatal(err)
	}
	var out Response
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCodecAsGob: docket gets what gob gave it, empty and nil slices,
// maps and byte slices included (both nil), so landed rows do not change.
func TestCodecAsGob(t *testing.T) {
	cases := []*Response{
		{ID: 1, Duration: time.Second, Result: &document.Result{Type: "pdf"}},
		{ID: 2, Err: &document.Error{Kind: document.KindCorrupt, Msg: "bad"}},
		{ID: 3, Result: &document.Result{
			Metadata:    document.Metadata{Extra: map[string]string{}, Title: "t"},
			Pages:       []document.Page{{}, {Number: 2, Text: "x\x00y"}},
			Elements:    []document.Element{},
			Tables:      []document.Table{{Header: []string{}, Rows: [][]string{{}, nil, {"", "a"}}, Spans: []document.CellSpan{}}},
			Attachments: []document.Attachment{{Name: "e", Data: []byte{}}, {Name: "f", Data: []byte{0, 1}}},
			Warnings:    []string{""},
			Reviews:     []document.Review{{}},
		}},
		{ID: -4, Duration: -1},
	}
	for i, c := range cases {
		got, err := RoundTripResponse(c)
		if err != nil {
			t.Fatal(err)
		}
		if want := gobRoundTrip(t, c); !reflect.DeepEqual(got, want) {
			t.Errorf("case %d:\n got %#v\nwant %#v", i, got, want)
		}
	}
}

// TestCodecRejectsBrokenFrames: frames cut short, of another wire
// version, with bytes left over or with counts the frame cannot hold are
// BrokenFrame errors (never a panic nor a huge allocation).
func TestCodecRejectsBrokenFrames(t *testing.T) {
	var e encoder
	e.response(&Response{ID: 7, Result: &document.Result{Pages: []document.Page{{Number: 1, Text: "hello"}}}})
	good := append([]byte(nil), e.frame()[4:]...)
	huge := append([]byte{WireVersion}, binary.AppendVarint(nil, 1)...)
	huge = binary.AppendVarint(huge, 0)
	huge = binary.AppendUvarint(huge, hasResult)
	huge = binary.AppendUvarint(huge, 1<<40) // Type's length
	for name, payload := range map[string][]byte{
		"cut":        good[:len(good)-3],
		"version":    append([]byte{WireVersion + 1}, good[1:]...),
		"left over":  append(append([]byte(nil), good...), 0),
		"huge count": huge,
		"flags":      {WireVersion, 2, 0, 0x7f},
		"empty":      {},
	} {
		d, err := newDecoder(payload)
		if err == nil {
			_, err = d.response()
		}
		var bf *BrokenFrame
		if !errors.As(err, &bf) {
			t.Errorf("%s: error %v, want a BrokenFrame", name, err)
		}
	}
	for name, frame := range map[string][]byte{
		"too long": {0xff, 0xff, 0xff, 0xff},
		"zero":     {0, 0, 0, 0},
	} {
		_, err := readFrame(bytes.NewReader(frame))
		var bf *BrokenFrame
		if !errors.As(err, &bf) {
			t.Errorf("%s: error %v, want a BrokenFrame", name, err)
		}
	}
	if _, err := readFrame(bytes.NewReader([]byte{9, 0, 0, 0, WireVersion})); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a frame cut by the pipe: %v, want unexpected EOF", err)
	}
}

// filledPayload is the frame contents (version byte on) of a Request or
// Response (v) with every field set.
func filledPayload[T any](encode func(*encoder, *T)) []byte {
	var v T
	n := 0
	fill(reflect.ValueOf(&v).Elem(), &n)
	var e encoder
	encode(&e, &v)
	return append([]byte(nil), e.frame()[4:]...)
}

// FuzzDecodeResponse: any bytes decode to a response or an error.
func FuzzDecodeResponse(f *testing.F) {
	f.Add(filledPayload((*encoder).response))
	var e encoder
	e.response(&Response{ID: 1, Err: &document.Error{Kind: "k", Msg: "m"}})
	f.Add(append([]byte(nil), e.frame()[4:]...))
	f.Fuzz(func(t *testing.T, payload []byte) {
		d, err := newDecoder(payload)
		if err != nil {
			return
		}
		if got, err := d.response(); err == nil {
			// What decoded encodes to bytes that decode to the same.
			var e encoder
			e.response(&got)
			again, err := newDecoder(append([]byte(nil), e.frame()[4:]...))
			if err != nil {
				t.Fatal(err)
			}
			back, err := again.response()
			if err != nil {
				t.Fatal(err)
			}
			first := append([]byte(nil), e.frame()...)
			if e.response(&back); !bytes.Equal(e.frame(), first) { // bytes: NaN != NaN
				t.Errorf("re-encoded response reads back as %+v; want %+v", back, got)
			}
		}
	})
}

// FuzzDecodeRequest: any bytes decode to a request or an error.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(filledPayload((*encoder).request))
	f.Fuzz(func(t *testing.T, payload []byte) {
		if d, err := newDecoder(payload); err == nil {
			d.request()
		}
	})
}

// TestPoolBrokenFrame: a worker answering with a frame docket cannot read
// (here: another wire version) costs its document a crash naming why,
// at once, though the process is still alive (it is killed).
func TestPoolBrokenFrame(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(PoolOptions{Command: []string{exe}, Env: []string{"DOCKET_TEST_AS_WORKER=wrongwire"}, Size: 1, Timeout: time.Minute, Versions: testVersions})
	t.Cleanup(p.Close)
	resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Err == nil || resp.Err.Kind != document.KindCrash || !strings.Contains(resp.Err.Msg, "wire version 99") {
		t.Fatalf("got %+v, want a crash naming wire version 99", resp.Err)
	}
}

// within reports whether s's bytes lie in buf.
func within(s string, buf []byte) bool {
	if len(s) == 0 || len(buf) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&buf[0]))
	return p >= lo && p < lo+uintptr(len(buf))
}

// TestCodecKeptStringsAreCopies: the strings the loader keeps after it
// landed a result (an error, the result's facts for later files with the
// same bytes, attachment names in the run's refs) are copies, not views
// of the frame: a name pointing into the frame kept the whole frame (the
// text, every attachment's bytes) alive to the end of the run.
func TestCodecKeptStringsAreCopies(t *testing.T) {
	resp := &Response{ID: 1, Err: &document.Error{Kind: "crash", Msg: "worker died"}, Result: &document.Result{
		Type: "zip", MIME: "application/zip", ExtractorVersion: "zip/3",
		Metadata:    document.Metadata{Title: "a title", Author: "an author", Created: "2020", Modified: "2021", Language: "en", Extra: map[string]string{"key": "value"}},
		Pages:       []document.Page{{Number: 1, Text: "page text"}},
		Attachments: []document.Attachment{{Name: "member.txt", Data: []byte("member bytes")}},
		Warnings:    []string{"a warning"},
	}}
	var e encoder
	e.response(resp)
	buf := append([]byte(nil), e.frame()[4:]...)
	d, err := newDecoder(buf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.response()
	if err != nil {
		t.Fatal(err)
	}
	if !within(got.Result.Pages[0].Text, buf) {
		t.Fatal("the test's frame is not the decoded one: page text not in it")
	}
	r := got.Result
	m := r.Metadata
	kept := map[string]string{"error kind": got.Err.Kind, "error message": got.Err.Msg, "type": r.Type, "MIME": r.MIME,
		"extractor version": r.ExtractorVersion, "title": m.Title, "author": m.Author, "created": m.Created, "modified": m.Modified,
		"language": m.Language, "attachment name": r.Attachments[0].Name, "warning": r.Warnings[0]}
	for k, v := range m.Extra {
		kept["extra key"], kept["extra value"] = k, v
	}
	for what, s := range kept {
		if within(s, buf) {
			t.Errorf("%s %q points into the frame", what, s)
		}
	}
}

// TestServeAnswerOverFrameLimit: a result whose frame would be longer
// than a frame may be is a too_large error of its document, not a frame
// the Pool rejects as a broken stream (a crash, retried up to
// loader.max_attempts) or, past 4 GiB, a length that wraps.
func TestServeAnswerOverFrameLimit(t *testing.T) {
	defer func(was int) { maxFrame = was }(maxFrame)
	maxFrame = 1 << 10
	var in, out bytes.Buffer
	var e encoder
	for id := int64(1); id <= 2; id++ {
		e.request(&Request{ID: id, Path: "x"})
		in.Write(e.frame())
	}
	err := Serve(context.Background(), &in, &out, testVersions, func(_ context.Context, r Request) (*document.Result, error) {
		return &document.Result{Pages: []document.Page{{Number: 1, Text: strings.Repeat("x", int(r.ID)*600)}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := readFrame(&out); err != nil {
		t.Fatalf("hello: %v", err)
	} else if v, err := d.hello(); err != nil || v != testVersions {
		t.Fatalf("hello %q, %v; want %q", v, err, testVersions)
	}
	for id := int64(1); id <= 2; id++ {
		d, err := readFrame(&out)
		if err != nil {
			t.Fatalf("answer %d: %v", id, err)
		}
		resp, err := d.response()
		if err != nil {
			t.Fatalf("answer %d: %v", id, err)
		}
		switch {
		case resp.ID != id:
			t.Errorf("answer %d has ID %d", id, resp.ID)
		case id == 1 && (resp.Err != nil || resp.Result == nil):
			t.Errorf("a result under the limit: %+v", resp)
		case id == 2 && (resp.Result != nil || resp.Err == nil || resp.Err.Kind != document.KindTooLarge):
			t.Errorf("a result over the limit: %+v, want a too_large error", resp)
		}
	}
}
