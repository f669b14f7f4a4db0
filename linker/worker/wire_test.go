package worker

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/cudalink/cudalink/linker/worker/internal/workerpb"
)

// checkWire decodes b with decodeWorkRequest and with proto.Unmarshal into
// the generated WorkRequest: both must accept it or both refuse it, and
// give the same values.
func checkWire(t *testing.T, b []byte) {
	t.Helper()
	got, err := decodeWorkRequest(b)
	var want workerpb.WorkRequest
	werr := proto.Unmarshal(b, &want)
	if (err == nil) != (werr == nil) {
		t.Fatalf("% x: decodeWorkRequest: %v; proto.Unmarshal: %v", b, err, werr)
	}
	if err != nil {
		return
	}
	var ins []Input
	for _, in := range want.GetInputs() {
		ins = append(ins, Input{Path: in.GetPath(), Digest: string(in.GetDigest())})
	}
	if !slices.Equal(got.arguments, want.GetArguments()) || !slices.Equal(got.inputs, ins) ||
		got.requestID != want.GetRequestId() || got.cancel != want.GetCancel() ||
		got.verbosity != want.GetVerbosity() || got.sandboxDir != want.GetSandboxDir() {
		t.Fatalf("% x: decodeWorkRequest %+v; proto.Unmarshal %v", b, got, &want)
	}
}

var wireStrings = []string{"", "-arch=sm_80", "a.cubin", "é", "\xff", "x\x00y", "--fatbin=o.fatbin"}

func randomRequest(r *rand.Rand) *workerpb.WorkRequest {
	m := &workerpb.WorkRequest{
		RequestId:  int32(r.Uint32()) >> r.IntN(32),
		Cancel:     r.IntN(2) == 0,
		Verbosity:  int32(r.IntN(20)) - 5,
		SandboxDir: wireStrings[r.IntN(3)],
	}
	for range r.IntN(4) {
		m.Arguments = append(m.Arguments, wireStrings[r.IntN(4)])
	}
	for range r.IntN(3) {
		m.Inputs = append(m.Inputs, &workerpb.Input{Path: wireStrings[r.IntN(4)], Digest: []byte(wireStrings[r.IntN(len(wireStrings))])})
	}
	return m
}

// TestWireMatchesProto: the hand-written wire decoder agrees with
// protobuf's on generated requests and on every kind of damage done to
// them (bytes changed, cut short, random tails, unknown fields and groups,
// invalid UTF-8, overlong varints); the encoder writes proto.Marshal's
// bytes (on valid UTF-8: the server makes every output so).
func TestWireMatchesProto(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		b, err := proto.Marshal(randomRequest(r))
		if err != nil {
			t.Fatal(err)
		}
		checkWire(t, b)
		if len(b) > 0 {
			c := bytes.Clone(b)
			c[r.IntN(len(c))] = byte(r.Uint32())
			checkWire(t, c)
			checkWire(t, b[:r.IntN(len(b))])
		}
		tail := make([]byte, r.IntN(8))
		for j := range tail {
			tail[j] = byte(r.Uint32())
		}
		checkWire(t, append(bytes.Clone(b), tail...))
		if i%100 == 0 {
			resp := &response{id: int32(r.Uint32()), exitCode: int32(r.IntN(300)) - 1, output: wireStrings[r.IntN(4)], cancelled: r.IntN(2) == 0}
			if i%200 == 0 {
				resp = &response{}
			}
			want, _ := proto.Marshal(&workerpb.WorkResponse{ExitCode: resp.exitCode, Output: resp.output, RequestId: resp.id, WasCancelled: resp.cancelled})
			if got := appendWorkResponse(nil, resp); !bytes.Equal(got, want) {
				t.Fatalf("%+v: appendWorkResponse % x; proto.Marshal % x", resp, got, want)
			}
		}
	}
	for _, b := range [][]byte{
		{0x08, 0x01},             // cancel... as field 1 varint: an unknown wire type for arguments
		{0x1b, 0x08, 0x01, 0x1c}, // a group at field 3
		{0x1b, 0x08, 0x01, 0x24}, // a group closed with another number
		{0x1c},                   // an end group alone
		{0x0e}, {0x0f},           // wire types 6 and 7
		{0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // the longest varint
		{0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, // an overflowing one
		{0x00, 0x00},                         // field number 0
		{0xfa, 0xff, 0xff, 0xff, 0x0f, 0x00}, // the largest field number, bytes
		{0x12, 0x02, 0x0a, 0x01},             // an input cut short inside
		{0x12, 0x03, 0x0a, 0x01, 0xff},       // an input path that is not UTF-8
		{0x12, 0x03, 0x12, 0x01, 0xff},       // a digest that is not UTF-8 (bytes: fine)
		{0x32, 0x01, 0xc0},                   // sandbox_dir not UTF-8
		{0x29, 1, 2, 3, 4, 5, 6, 7, 8},       // verbosity as fixed64: unknown
	} {
		checkWire(t, b)
	}
}

// FuzzWireMatchesProto: the same comparison on any bytes.
func FuzzWireMatchesProto(f *testing.F) {
	f.Add([]byte("\x0a\x06-arch=\x12\x08\x0a\x02a.\x12\x02\x01\x02\x18\x05"))
	f.Add([]byte{0x1b, 0x08, 0x01, 0x1c})
	f.Fuzz(func(t *testing.T, b []byte) { checkWire(t, b) })
}
