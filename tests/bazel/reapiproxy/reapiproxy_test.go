package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

var v20 = semVer{major: 2}

// capabilitiesMsg encodes a ServerCapabilities with a cache_capabilities
// blob, the given API versions (nil: absent) and, last, an unknown field.
func capabilitiesMsg(deprecated, low, high *semVer) []byte {
	var b []byte
	b = append(b, 0x0a, 3, 0x12, 1, 0x05) // cache_capabilities {digest_functions ...}
	if deprecated != nil {
		b = appendSemVer(b, fieldDeprecatedAPIVersion, *deprecated)
	}
	if low != nil {
		b = appendSemVer(b, fieldLowAPIVersion, *low)
	}
	if high != nil {
		b = appendSemVer(b, fieldHighAPIVersion, *high)
	}
	return append(b, 0xf8, 0x01, 0x07) // field 31, varint 7
}

// versionsOf decodes the three API versions of a ServerCapabilities.
func versionsOf(t *testing.T, msg []byte) map[uint64]semVer {
	t.Helper()
	fs, err := fields(msg)
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint64]semVer{}
	for _, f := range fs {
		if f.num >= fieldDeprecatedAPIVersion && f.num <= fieldHighAPIVersion {
			if _, dup := out[f.num]; dup {
				t.Fatalf("field %d twice", f.num)
			}
			if out[f.num], err = parseSemVer(f.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// casd 1.4.30 offers 2.1 to 2.12: 2.0 is added as deprecated, before
// low_api_version, every other field kept byte for byte.
func TestOfferVersionAddsDeprecated(t *testing.T) {
	low, high := semVer{major: 2, minor: 1}, semVer{major: 2, minor: 12}
	in := capabilitiesMsg(nil, &low, &high)
	out, changed, err := offerVersion(in, v20)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	want := capabilitiesMsg(&v20, &low, &high)
	if !bytes.Equal(out, want) {
		t.Fatalf("got % x\nwant % x", out, want)
	}
	v := versionsOf(t, out)
	if v[fieldDeprecatedAPIVersion] != v20 || v[fieldLowAPIVersion] != low || v[fieldHighAPIVersion] != high {
		t.Fatalf("versions %v", v)
	}
}

// A server that already reaches 2.0, through its range or a deprecated
// version, is left alone; a deprecated version above 2.0 is replaced.
func TestOfferVersionOnlyWhenNeeded(t *testing.T) {
	v21, v22, v23 := semVer{major: 2, minor: 1}, semVer{major: 2, minor: 2}, semVer{major: 2, minor: 3}
	v10 := semVer{major: 1}
	for _, c := range []struct {
		name                   string
		deprecated, low, high  *semVer
		changed                bool
		wantDeprecated, wantLo semVer
	}{
		{"range from 2.0", nil, &v20, &v23, false, semVer{}, v20},
		{"deprecated 2.0", &v20, &v21, &v23, false, v20, v21},
		{"deprecated 1.0", &v10, &v21, &v23, false, v10, v21},
		{"deprecated 2.1", &v21, &v22, &v23, true, v20, v22},
	} {
		in := capabilitiesMsg(c.deprecated, c.low, c.high)
		out, changed, err := offerVersion(in, v20)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if changed != c.changed || (!changed && !bytes.Equal(out, in)) {
			t.Errorf("%s: changed %v, want %v", c.name, changed, c.changed)
		}
		v := versionsOf(t, out)
		if v[fieldDeprecatedAPIVersion] != c.wantDeprecated || v[fieldLowAPIVersion] != c.wantLo {
			t.Errorf("%s: versions %v", c.name, v)
		}
	}
}

func TestOfferVersionBadInput(t *testing.T) {
	low := semVer{major: 2, minor: 1}
	good := capabilitiesMsg(nil, &low, nil)
	for name, msg := range map[string][]byte{
		"truncated":         good[:len(good)-2],
		"length past end":   {0x22, 0x7f, 0x08},
		"end group":         {0x0c},
		"no low version":    capabilitiesMsg(nil, nil, nil),
		"bad varint":        {0x08, 0xff},
		"bad SemVer inside": {0x22, 0x02, 0x08, 0xff},
	} {
		if _, _, err := offerVersion(msg, v20); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := rewriteCapabilities([]byte{1, 0, 0, 0, 0}, v20); err == nil {
		t.Error("compressed message: no error")
	}
	if _, _, err := rewriteCapabilities([]byte{0, 0, 0, 0, 9, 1}, v20); err == nil {
		t.Error("short message: no error")
	}
}

func frame(msg []byte) []byte {
	out := make([]byte, frameHeader, frameHeader+len(msg))
	binary.BigEndian.PutUint32(out[1:], uint32(len(msg)))
	return append(out, msg...)
}

// h2cServer serves h on a loopback cleartext HTTP/2 listener.
func h2cServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, Protocols: new(http.Protocols)}
	srv.Protocols.SetUnencryptedHTTP2(true)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// The proxy between an h2c client and an h2c upstream: streamed messages
// pass byte for byte and as they come, with headers and trailers; an error
// without a message passes as it is; GetCapabilities gets 2.0 offered.
func TestForward(t *testing.T) {
	low, high := semVer{major: 2, minor: 1}, semVer{major: 2, minor: 12}
	caps := capabilitiesMsg(nil, &low, &high)
	firstRead := make(chan struct{})
	upstream := http.NewServeMux()
	upstream.HandleFunc("/google.bytestream.ByteStream/Read", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Te") != "trailers" || r.Header.Get("X-Meta-Bin") != "AAE" {
			w.Header().Set("Grpc-Status", "3")
			return
		}
		req, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/grpc")
		w.Write(frame(req))
		w.(http.Flusher).Flush()
		<-firstRead // the client has the first message: nothing waits in a buffer
		w.Write(frame([]byte{0, 1, 2, 0xff}))
		w.Header().Set(http.TrailerPrefix+"Grpc-Status", "0")
		w.Header().Set(http.TrailerPrefix+"X-Trailer", "kept")
	})
	upstream.HandleFunc("/build.bazel.remote.execution.v2.ActionCache/GetActionResult", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/grpc")
		w.Header().Set("Grpc-Status", "5") // NOT_FOUND, trailers-only
	})
	upstream.HandleFunc(capabilitiesMethod, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/grpc")
		w.Write(frame(caps))
		w.Header().Set(http.TrailerPrefix+"Grpc-Status", "0")
	})
	p := newProxy(h2cServer(t, upstream), v20)
	p.logf = t.Logf
	addr := h2cServer(t, p)

	tr := &http.Transport{Protocols: new(http.Protocols)}
	tr.Protocols.SetUnencryptedHTTP2(true)
	defer tr.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	call := func(method string, body []byte) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, "POST", "http://"+addr+method, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/grpc")
		req.Header.Set("Te", "trailers")
		req.Header.Set("X-Meta-Bin", "AAE")
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	msg := []byte("resource_name: blobs/abc/3")
	resp := call("/google.bytestream.ByteStream/Read", msg)
	first := make([]byte, frameHeader+len(msg))
	if _, err := io.ReadFull(resp.Body, first); err != nil || !bytes.Equal(first, frame(msg)) {
		t.Fatalf("first message % x, %v", first, err)
	}
	close(firstRead)
	rest, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(rest, frame([]byte{0, 1, 2, 0xff})) {
		t.Fatalf("second message % x, %v", rest, err)
	}
	if resp.Trailer.Get("Grpc-Status") != "0" || resp.Trailer.Get("X-Trailer") != "kept" ||
		resp.Header.Get("Content-Type") != "application/grpc" {
		t.Fatalf("header %v, trailer %v", resp.Header, resp.Trailer)
	}

	resp = call("/build.bazel.remote.execution.v2.ActionCache/GetActionResult", []byte{1})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(body) != 0 || resp.Header.Get("Grpc-Status") != "5" {
		t.Fatalf("trailers-only error: body % x, header %v", body, resp.Header)
	}

	resp = call(capabilitiesMethod, nil)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, frame(capabilitiesMsg(&v20, &low, &high))) || resp.Trailer.Get("Grpc-Status") != "0" {
		t.Fatalf("GetCapabilities: % x, trailer %v", body, resp.Trailer)
	}
	if p.calls.Load() != 3 || p.rewritten.Load() != 1 || p.methodCounts() != "GetActionResult 1, GetCapabilities 1, Read 1" {
		t.Fatalf("%d calls (%s), %d rewritten", p.calls.Load(), p.methodCounts(), p.rewritten.Load())
	}
}

// An upstream that is not there: the call fails with UNAVAILABLE.
func TestForwardUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := ln.Addr().String()
	ln.Close()
	p := newProxy(gone, v20)
	p.logf = t.Logf
	addr := h2cServer(t, p)
	tr := &http.Transport{Protocols: new(http.Protocols)}
	tr.Protocols.SetUnencryptedHTTP2(true)
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest("POST", "http://"+addr+capabilitiesMethod, nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Grpc-Status") != "14" || resp.Header.Get("Grpc-Message") == "" {
		t.Fatalf("header %v", resp.Header)
	}
}
