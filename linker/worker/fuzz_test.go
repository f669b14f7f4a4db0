package worker

import (
	"bytes"
	"testing"
)

// fuzzDecode reads requests from data until the decoder stops; it must
// stop with an error or io.EOF, never panic or loop.
func fuzzDecode(t *testing.T, d decoder) {
	for i := 0; i < 1000; i++ {
		req, _, err := d.next()
		if err != nil {
			return
		}
		if req == nil {
			t.Fatal("a request decoded as nil without an error")
		}
	}
}

// FuzzProtoRequests: any byte stream given to the proto decoder.
func FuzzProtoRequests(f *testing.F) {
	// A WorkRequest with arguments, an input with a digest, and an id.
	f.Add([]byte("\x1a\x0a\x06-arch=\x12\x00\x12\x08\x0a\x02a.\x12\x02\x01\x02\x18\x05"))
	f.Add([]byte{0x00})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, newProtoDecoder(bytes.NewReader(data)))
	})
}

// FuzzJSONRequests: any byte stream given to the JSON decoder, objects back
// to back as Bazel 4.2.3 writes them.
func FuzzJSONRequests(f *testing.F) {
	f.Add([]byte(`{"arguments":["-arch=sm_80","a.cubin"],"inputs":[{"path":"a.cubin","digest":"AQI="}],"requestId":3}{"requestId":3,"cancel":true}`))
	f.Add([]byte("{}\r\n{}\n"))
	f.Add([]byte(`{"requestId":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, newJSONDecoder(bytes.NewReader(data)))
	})
}
