// Package fakebazel is the Bazel side of the persistent-worker protocol,
// for tests: it encodes requests and decodes responses with code of its
// own (protowire by hand, JSON text by hand), not with the worker's, so
// that a mistake in the worker's codec cannot hide itself. It writes
// requests as Bazel 4.2.3 does: proto fields at their defaults omitted;
// JSON compact, defaults omitted, '=' escaped as \u003d, no newline between
// requests.
package fakebazel

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// Request is a WorkRequest.
type Request struct {
	ID     int32    // request_id: 0 for a singleplex worker
	Args   []string // arguments
	Inputs []Input  // inputs, with their digests
	Cancel bool     // cancel: stop the request with this ID
}

// Input is one input of a request.
type Input struct {
	Path   string // path
	Digest string // digest
}

// Response is a WorkResponse.
type Response struct {
	ID        int32  // request_id
	ExitCode  int32  // exit_code
	Output    string // output: what the link printed
	Cancelled bool   // was_cancelled
}

// String shows the response as a test failure prints it.
func (r Response) String() string {
	return fmt.Sprintf("{id %d exit %d cancelled %v output %q}", r.ID, r.ExitCode, r.Cancelled, r.Output)
}

// Encode encodes a request in a protocol, "proto" or "json".
func Encode(protocol string, r Request) []byte {
	if protocol == "json" {
		return []byte(JSON(r))
	}
	return Proto(r)
}

// Proto encodes a WorkRequest with its varint length in front, as Java's
// writeDelimitedTo does.
func Proto(r Request) []byte {
	var b []byte
	for _, a := range r.Args {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, a)
	}
	for _, in := range r.Inputs {
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendString(m, in.Path)
		if in.Digest != "" {
			m = protowire.AppendTag(m, 2, protowire.BytesType)
			m = protowire.AppendString(m, in.Digest)
		}
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	if r.ID != 0 {
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(r.ID)))
	}
	if r.Cancel {
		b = protowire.AppendTag(b, 4, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	return append(protowire.AppendVarint(nil, uint64(len(b))), b...)
}

// JSON encodes a WorkRequest as Bazel 4's JsonFormat printer does. The
// digest is written as given (Bazel sends base64 of its digest bytes).
func JSON(r Request) string {
	str := func(s string) string {
		b, _ := json.Marshal(s)
		return strings.ReplaceAll(string(b), "=", `\u003d`)
	}
	var fields []string
	if len(r.Args) > 0 {
		var as []string
		for _, a := range r.Args {
			as = append(as, str(a))
		}
		fields = append(fields, `"arguments":[`+strings.Join(as, ",")+`]`)
	}
	if len(r.Inputs) > 0 {
		var is []string
		for _, in := range r.Inputs {
			f := `{"path":` + str(in.Path)
			if in.Digest != "" {
				f += `,"digest":` + str(in.Digest)
			}
			is = append(is, f+"}")
		}
		fields = append(fields, `"inputs":[`+strings.Join(is, ",")+`]`)
	}
	if r.ID != 0 {
		fields = append(fields, `"requestId":`+strconv.Itoa(int(r.ID)))
	}
	if r.Cancel {
		fields = append(fields, `"cancel":true`)
	}
	return "{" + strings.Join(fields, ",") + "}"
}

// NewReader returns a function that reads the next response of a stream;
// it returns io.EOF at a clean end of the stream (between responses) and
// another error for anything that is not a well-formed response.
func NewReader(protocol string, r io.Reader) func() (Response, error) {
	if protocol == "json" {
		dec := json.NewDecoder(r)
		return func() (Response, error) { return readJSON(dec) }
	}
	br := bufio.NewReader(r)
	return func() (Response, error) { return readProto(br) }
}

// readProto decodes one length-delimited WorkResponse strictly: only the
// four fields, each at most once, output valid UTF-8.
func readProto(br *bufio.Reader) (Response, error) {
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return Response{}, err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(br, buf); err != nil {
		return Response{}, fmt.Errorf("truncated response: %v", err)
	}
	var r Response
	seen := map[protowire.Number]bool{}
	for len(buf) > 0 {
		num, typ, n := protowire.ConsumeTag(buf)
		if n < 0 {
			return r, fmt.Errorf("bad tag: %v", protowire.ParseError(n))
		}
		buf = buf[n:]
		if seen[num] {
			return r, fmt.Errorf("field %d twice", num)
		}
		seen[num] = true
		switch {
		case typ == protowire.VarintType && (num == 1 || num == 3 || num == 4):
			v, n := protowire.ConsumeVarint(buf)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			buf = buf[n:]
			switch num {
			case 1:
				r.ExitCode = int32(v)
			case 3:
				r.ID = int32(v)
			case 4:
				r.Cancelled = v != 0
			}
		case typ == protowire.BytesType && num == 2:
			v, n := protowire.ConsumeBytes(buf)
			if n < 0 {
				return r, protowire.ParseError(n)
			}
			buf = buf[n:]
			if !utf8.Valid(v) {
				return r, fmt.Errorf("output is not valid UTF-8: %q", v)
			}
			r.Output = string(v)
		default:
			return r, fmt.Errorf("unexpected field %d of wire type %d", num, typ)
		}
	}
	return r, nil
}

// readJSON reads one JSON response: the keys Bazel reads (exitCode,
// output, requestId) and wasCancelled, nothing else, none twice.
func readJSON(dec *json.Decoder) (Response, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return Response{}, err
	}
	var r Response
	d := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return r, fmt.Errorf("a response is not an object: %s", raw)
	}
	seen := map[string]bool{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return r, err
		}
		k := tok.(string)
		if seen[k] {
			return r, fmt.Errorf("key %q twice", k) // Bazel's reader refuses that
		}
		seen[k] = true
		switch k {
		case "exitCode":
			err = d.Decode(&r.ExitCode)
		case "requestId":
			err = d.Decode(&r.ID)
		case "output":
			err = d.Decode(&r.Output)
		case "wasCancelled":
			err = d.Decode(&r.Cancelled)
		default:
			err = fmt.Errorf("unexpected key %q", k)
		}
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// ReadAll decodes a whole response stream strictly: complete responses and
// nothing else.
func ReadAll(protocol string, stream []byte) ([]Response, error) {
	next := NewReader(protocol, strings.NewReader(string(stream)))
	var rs []Response
	for {
		r, err := next()
		if err == io.EOF {
			return rs, nil
		}
		if err != nil {
			return rs, fmt.Errorf("not a clean stream of responses after %d: %v", len(rs), err)
		}
		rs = append(rs, r)
	}
}
