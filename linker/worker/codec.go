package worker

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// decoder reads requests. next returns io.EOF at a clean end of the stream
// (between requests) and any other error when the stream cannot be read on.
type decoder interface {
	next() (req *Request, cancel bool, err error)
}

// encoder turns a response into the bytes of one frame.
type encoder func(*response) ([]byte, error)

// response is one WorkResponse.
type response struct {
	id        int32
	exitCode  int32
	output    string
	cancelled bool
}

// protoDecoder reads varint-length-delimited WorkRequests, as Java's
// writeDelimitedTo writes them.
type protoDecoder struct{ r *bufio.Reader }

func newProtoDecoder(r io.Reader) *protoDecoder { return &protoDecoder{newReader(r)} }

func (d *protoDecoder) next() (*Request, bool, error) {
	n, err := binary.ReadUvarint(d.r)
	switch {
	case err == io.EOF:
		return nil, false, io.EOF
	case err != nil:
		return nil, false, fmt.Errorf("reading the length of a request: %v", err)
	case n > maxFrame:
		return nil, false, fmt.Errorf("a request of %d bytes is longer than the limit of %d: the stream is corrupt", n, maxFrame)
	}
	// Grow the buffer as bytes arrive rather than trusting the length:
	// a corrupt prefix then costs only what the stream really holds.
	var frame bytes.Buffer
	if got, err := io.CopyN(&frame, d.r, int64(n)); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, false, fmt.Errorf("reading a request of %d bytes (got %d): %v", n, got, err)
	}
	m, err := decodeWorkRequest(frame.Bytes())
	if err != nil {
		return nil, false, fmt.Errorf("decoding a request of %d bytes: %v", n, err)
	}
	req := &Request{
		ID:         m.requestID,
		Arguments:  m.arguments,
		Inputs:     m.inputs,
		Verbosity:  m.verbosity,
		SandboxDir: m.sandboxDir,
	}
	return req, m.cancel, nil
}

// encodeProto writes a WorkResponse with its length in front, in one
// buffer so that it goes out in one write.
func encodeProto(r *response) ([]byte, error) {
	body := appendWorkResponse(nil, r)
	buf := binary.AppendUvarint(make([]byte, 0, len(body)+binary.MaxVarintLen64), uint64(len(body)))
	return append(buf, body...), nil
}

// jsonDecoder reads WorkRequests in protobuf's JSON mapping, as a stream of
// objects: Bazel 4 writes them back to back, later versions put a newline
// (\r\n on Windows) after each, and json.Decoder takes both.
type jsonDecoder struct{ d *json.Decoder }

func newJSONDecoder(r io.Reader) *jsonDecoder { return &jsonDecoder{json.NewDecoder(newReader(r))} }

// jsonRequest is a WorkRequest in JSON. Names are protobuf's lowerCamelCase
// JSON names, and the proto names that protobuf's JSON parsers also accept.
// Missing fields take their defaults and unknown fields are ignored. A
// digest stays the text it was sent as (base64 of Bazel's digest bytes):
// it is only compared, and another sender may not send base64.
type jsonRequest struct {
	Arguments       []string    `json:"arguments"`
	Inputs          []jsonInput `json:"inputs"`
	RequestID       jsonInt32   `json:"requestId"`
	RequestIDSnake  jsonInt32   `json:"request_id"`
	Cancel          bool        `json:"cancel"`
	Verbosity       jsonInt32   `json:"verbosity"`
	SandboxDir      string      `json:"sandboxDir"`
	SandboxDirSnake string      `json:"sandbox_dir"`
}

type jsonInput struct {
	Path   string `json:"path"`
	Digest string `json:"digest"`
}

// jsonInt32 is an int32 given as a JSON number or, as protobuf's JSON
// mapping also allows, a string.
type jsonInt32 int32

func (v *jsonInt32) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = []byte(s)
	}
	n, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return fmt.Errorf("%s is not an int32", b)
	}
	*v = jsonInt32(n)
	return nil
}

func (d *jsonDecoder) next() (*Request, bool, error) {
	var raw json.RawMessage
	if err := d.d.Decode(&raw); err != nil {
		if err == io.EOF {
			return nil, false, io.EOF
		}
		return nil, false, fmt.Errorf("reading a JSON request: %v", err)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false, fmt.Errorf("a JSON request is not an object: %.40s", raw)
	}
	var m jsonRequest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false, fmt.Errorf("decoding a JSON request: %v", err)
	}
	req := &Request{
		ID:         int32(m.RequestID),
		Arguments:  m.Arguments,
		Verbosity:  int32(m.Verbosity),
		SandboxDir: m.SandboxDir,
	}
	if req.ID == 0 {
		req.ID = int32(m.RequestIDSnake)
	}
	if req.SandboxDir == "" {
		req.SandboxDir = m.SandboxDirSnake
	}
	for _, in := range m.Inputs {
		req.Inputs = append(req.Inputs, Input(in))
	}
	return req, m.Cancel, nil
}

// jsonResponse is a WorkResponse in JSON, with the names Bazel's reader
// looks for. Bazel 4 reads exitCode, output and requestId and skips the
// rest, wasCancelled included.
type jsonResponse struct {
	ExitCode     int32  `json:"exitCode"`
	Output       string `json:"output"`
	RequestID    int32  `json:"requestId"`
	WasCancelled bool   `json:"wasCancelled,omitempty"`
}

// encodeJSON writes a response as one line.
func encodeJSON(r *response) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // Encode ends the object with a newline
	enc.SetEscapeHTML(false)     // "->" stays readable in the worker log
	err := enc.Encode(jsonResponse{ExitCode: r.exitCode, Output: r.output, RequestID: r.id, WasCancelled: r.cancelled})
	return buf.Bytes(), err
}
