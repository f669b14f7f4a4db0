package worker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// The protobuf wire format of the two messages the protocol has
// (internal/workerpb/worker_protocol.proto), read and written by hand: the
// generated code and protobuf's runtime cost every cudalink process, one-shot
// links included, about a megabyte of resident memory and a millisecond of
// start-up, for two flat messages. decodeWorkRequest accepts and refuses
// what proto.Unmarshal does on a WorkRequest, with the same values
// (TestWireMatchesProto compares them).

// Wire types.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

var errWire = errors.New("cannot parse invalid wire-format data")

// workRequest is a decoded WorkRequest.
type workRequest struct {
	arguments  []string
	inputs     []Input
	requestID  int32
	cancel     bool
	verbosity  int32
	sandboxDir string
}

// decodeWorkRequest decodes one WorkRequest (without its length prefix).
func decodeWorkRequest(b []byte) (*workRequest, error) {
	m := &workRequest{}
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return nil, errWire
		}
		b = b[n:]
		switch {
		case num == 1 && typ == wireBytes: // arguments
			v, n := consumeBytes(b)
			if n < 0 {
				return nil, errWire
			}
			if !utf8.Valid(v) {
				return nil, errInvalidUTF8("arguments")
			}
			m.arguments = append(m.arguments, string(v))
			b = b[n:]
		case num == 2 && typ == wireBytes: // inputs
			v, n := consumeBytes(b)
			if n < 0 {
				return nil, errWire
			}
			in, err := decodeInput(v)
			if err != nil {
				return nil, err
			}
			m.inputs = append(m.inputs, in)
			b = b[n:]
		case (num == 3 || num == 4 || num == 5) && typ == wireVarint:
			v, n := binary.Uvarint(b)
			if n <= 0 || n > binary.MaxVarintLen64 {
				return nil, errWire
			}
			switch num {
			case 3:
				m.requestID = int32(v)
			case 4:
				m.cancel = v != 0
			case 5:
				m.verbosity = int32(v)
			}
			b = b[n:]
		case num == 6 && typ == wireBytes: // sandbox_dir
			v, n := consumeBytes(b)
			if n < 0 {
				return nil, errWire
			}
			if !utf8.Valid(v) {
				return nil, errInvalidUTF8("sandbox_dir")
			}
			m.sandboxDir = string(v)
			b = b[n:]
		default: // an unknown field, or a known one with another wire type
			n := consumeValue(num, typ, b, 0)
			if n < 0 {
				return nil, errWire
			}
			b = b[n:]
		}
	}
	return m, nil
}

// decodeInput decodes one Input message.
func decodeInput(b []byte) (Input, error) {
	var in Input
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return Input{}, errWire
		}
		b = b[n:]
		switch {
		case (num == 1 || num == 2) && typ == wireBytes:
			v, n := consumeBytes(b)
			if n < 0 {
				return Input{}, errWire
			}
			if num == 1 {
				if !utf8.Valid(v) {
					return Input{}, errInvalidUTF8("path")
				}
				in.Path = string(v)
			} else {
				in.Digest = string(v)
			}
			b = b[n:]
		default:
			n := consumeValue(num, typ, b, 0)
			if n < 0 {
				return Input{}, errWire
			}
			b = b[n:]
		}
	}
	return in, nil
}

func errInvalidUTF8(field string) error {
	return fmt.Errorf("string field %s contains invalid UTF-8", field)
}

// consumeTag reads a field's tag: its number (1 to 2^29-1) and wire type;
// n < 0 when it is not a valid tag.
func consumeTag(b []byte) (num uint64, typ int, n int) {
	return consumeTagUpTo(b, 1<<29-1)
}

// consumeTagUpTo is consumeTag for field numbers up to most. Inside a
// group that it skips, proto.Unmarshal takes any number up to 2^31-1
// (protowire.ConsumeTag), not only the valid 2^29-1.
func consumeTagUpTo(b []byte, most uint64) (num uint64, typ int, n int) {
	v, n := binary.Uvarint(b)
	if n <= 0 || n > binary.MaxVarintLen64 {
		return 0, 0, -1
	}
	num, typ = v>>3, int(v&7)
	if num < 1 || num > most {
		return 0, 0, -1
	}
	return num, typ, n
}

// consumeBytes reads a length-delimited value; n < 0 when it is cut short.
func consumeBytes(b []byte) (v []byte, n int) {
	l, n := binary.Uvarint(b)
	if n <= 0 || n > binary.MaxVarintLen64 || l > uint64(len(b)-n) {
		return nil, -1
	}
	return b[n : n+int(l)], n + int(l)
}

// consumeValue skips the value of a field of wire type typ, groups (which
// nest) included; n < 0 when it is malformed.
func consumeValue(num uint64, typ int, b []byte, depth int) int {
	switch typ {
	case wireVarint:
		_, n := binary.Uvarint(b)
		if n <= 0 || n > binary.MaxVarintLen64 {
			return -1
		}
		return n
	case wireFixed64:
		if len(b) < 8 {
			return -1
		}
		return 8
	case wireFixed32:
		if len(b) < 4 {
			return -1
		}
		return 4
	case wireBytes:
		_, n := consumeBytes(b)
		return n
	case wireStartGroup:
		if depth >= 10000 { // protobuf's own recursion limit
			return -1
		}
		total := 0
		for {
			num2, typ2, n := consumeTagUpTo(b, math.MaxInt32)
			if n < 0 {
				return -1
			}
			b, total = b[n:], total+n
			if typ2 == wireEndGroup {
				if num2 != num {
					return -1
				}
				return total
			}
			n = consumeValue(num2, typ2, b, depth+1)
			if n < 0 {
				return -1
			}
			b, total = b[n:], total+n
		}
	}
	return -1 // an end group with no start, or wire types 6 and 7
}

// appendWorkResponse appends a WorkResponse, fields in number order and
// those at their default left out, as proto.Marshal writes it.
func appendWorkResponse(b []byte, r *response) []byte {
	if r.exitCode != 0 {
		b = append(b, 1<<3|wireVarint)
		b = binary.AppendUvarint(b, uint64(int64(r.exitCode)))
	}
	if r.output != "" {
		b = append(b, 2<<3|wireBytes)
		b = binary.AppendUvarint(b, uint64(len(r.output)))
		b = append(b, r.output...)
	}
	if r.id != 0 {
		b = append(b, 3<<3|wireVarint)
		b = binary.AppendUvarint(b, uint64(int64(r.id)))
	}
	if r.cancelled {
		b = append(b, 4<<3|wireVarint, 1)
	}
	return b
}
