package worker

import (
	"bytes"
	"testing"
)

// RoundTripResponse writes resp as the worker does and reads it back as the
// Pool does (for tests outside the package).
func RoundTripResponse(resp *Response) (Response, error) {
	var e encoder
	e.response(resp)
	var pipe bytes.Buffer
	if err := writeFrame(&pipe, &e); err != nil {
		return Response{}, err
	}
	d, err := readFrame(&pipe)
	if err != nil {
		return Response{}, err
	}
	return d.response()
}

// GobRoundTrip is what the pipe carried before the codec (gob).
func GobRoundTrip(t *testing.T, resp *Response) Response { return gobRoundTrip(t, resp) }

// EncodeResponse encodes resp with a fresh encoder, as a worker writes its
// answer, and returns the frame's length and its buffer's capacity.
func EncodeResponse(resp *Response) (n, capacity int) {
	var e encoder
	e.response(resp)
	return len(e.b), cap(e.b)
}
