package main

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The GetCapabilities method and the fields of its response the proxy reads
// (remote_execution.proto, semver.proto).
const (
	capabilitiesMethod = "/build.bazel.remote.execution.v2.Capabilities/GetCapabilities"

	fieldDeprecatedAPIVersion = 3 // ServerCapabilities.deprecated_api_version
	fieldLowAPIVersion        = 4 // ServerCapabilities.low_api_version
	fieldHighAPIVersion       = 5 // ServerCapabilities.high_api_version

	fieldMajor      = 1 // SemVer.major
	fieldMinor      = 2 // SemVer.minor
	fieldPatch      = 3 // SemVer.patch
	fieldPrerelease = 4 // SemVer.prerelease
)

// semVer is an API version as the capabilities carry it.
type semVer struct {
	major, minor, patch uint64
	prerelease          string
}

func (v semVer) String() string {
	if v.prerelease != "" {
		return v.prerelease
	}
	if v.patch != 0 {
		return fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch)
	}
	return fmt.Sprintf("%d.%d", v.major, v.minor)
}

// less orders versions as Bazel's ApiVersion does: a prerelease before
// every release.
func (v semVer) less(w semVer) bool {
	switch {
	case v.prerelease != "" || w.prerelease != "":
		if v.prerelease == "" || w.prerelease == "" {
			return v.prerelease != ""
		}
		return v.prerelease < w.prerelease
	case v.major != w.major:
		return v.major < w.major
	case v.minor != w.minor:
		return v.minor < w.minor
	}
	return v.patch < w.patch
}

// field is one top-level field of a protobuf message: its number, wire
// type, and the bytes that encode it whole (tag included).
type field struct {
	num  uint64
	typ  int
	raw  []byte
	body []byte // the payload of a length-delimited field
	val  uint64 // the value of a varint field
}

// fields splits a protobuf message into its top-level fields.
func fields(msg []byte) ([]field, error) {
	var out []field
	for pos := 0; pos < len(msg); {
		start := pos
		tag, n := binary.Uvarint(msg[pos:])
		if n <= 0 {
			return nil, fmt.Errorf("bad tag at byte %d", pos)
		}
		pos += n
		f := field{num: tag >> 3, typ: int(tag & 7)}
		switch f.typ {
		case 0: // varint
			v, n := binary.Uvarint(msg[pos:])
			if n <= 0 {
				return nil, fmt.Errorf("bad varint in field %d at byte %d", f.num, pos)
			}
			f.val = v
			pos += n
		case 1: // fixed64
			if len(msg)-pos < 8 {
				return nil, fmt.Errorf("short fixed64 field %d at byte %d", f.num, pos)
			}
			pos += 8
		case 2: // length-delimited
			l, n := binary.Uvarint(msg[pos:])
			if n <= 0 || l > uint64(len(msg)-pos-n) {
				return nil, fmt.Errorf("bad length of field %d at byte %d", f.num, pos)
			}
			pos += n
			f.body = msg[pos : pos+int(l)]
			pos += int(l)
		case 5: // fixed32
			if len(msg)-pos < 4 {
				return nil, fmt.Errorf("short fixed32 field %d at byte %d", f.num, pos)
			}
			pos += 4
		default:
			return nil, fmt.Errorf("unsupported wire type %d of field %d at byte %d", f.typ, f.num, start)
		}
		f.raw = msg[start:pos]
		out = append(out, f)
	}
	return out, nil
}

// parseSemVer decodes a SemVer message.
func parseSemVer(msg []byte) (semVer, error) {
	fs, err := fields(msg)
	if err != nil {
		return semVer{}, fmt.Errorf("SemVer: %w", err)
	}
	var v semVer
	for _, f := range fs {
		switch {
		case f.num == fieldMajor && f.typ == 0:
			v.major = f.val
		case f.num == fieldMinor && f.typ == 0:
			v.minor = f.val
		case f.num == fieldPatch && f.typ == 0:
			v.patch = f.val
		case f.num == fieldPrerelease && f.typ == 2:
			v.prerelease = string(f.body)
		}
	}
	return v, nil
}

// appendSemVer appends field num holding v (a release, no prerelease).
func appendSemVer(b []byte, num uint64, v semVer) []byte {
	var m []byte
	for _, x := range []struct{ num, val uint64 }{{fieldMajor, v.major}, {fieldMinor, v.minor}, {fieldPatch, v.patch}} {
		if x.val != 0 {
			m = binary.AppendUvarint(m, x.num<<3)
			m = binary.AppendUvarint(m, x.val)
		}
	}
	b = binary.AppendUvarint(b, num<<3|2)
	b = binary.AppendUvarint(b, uint64(len(m)))
	return append(b, m...)
}

// offerVersion rewrites a ServerCapabilities message so that a client that
// speaks only version want finds it supported: when the server's range
// [low_api_version, high_api_version] starts above want and no
// deprecated_api_version at or below want is offered, deprecated_api_version
// becomes want. Every other field keeps its bytes and its place. It reports
// whether it changed the message.
func offerVersion(msg []byte, want semVer) ([]byte, bool, error) {
	fs, err := fields(msg)
	if err != nil {
		return nil, false, err
	}
	var low, deprecated *semVer
	for _, f := range fs {
		if f.typ != 2 || (f.num != fieldLowAPIVersion && f.num != fieldDeprecatedAPIVersion) {
			continue
		}
		v, err := parseSemVer(f.body)
		if err != nil {
			return nil, false, err
		}
		if f.num == fieldLowAPIVersion {
			low = &v
		} else {
			deprecated = &v
		}
	}
	if low == nil {
		return nil, false, errors.New("no low_api_version")
	}
	if !want.less(*low) || (deprecated != nil && !want.less(*deprecated)) {
		return msg, false, nil
	}
	var out []byte
	added := false
	for _, f := range fs {
		if f.num == fieldDeprecatedAPIVersion {
			continue
		}
		if !added && f.num > fieldDeprecatedAPIVersion {
			out = appendSemVer(out, fieldDeprecatedAPIVersion, want)
			added = true
		}
		out = append(out, f.raw...)
	}
	if !added {
		out = appendSemVer(out, fieldDeprecatedAPIVersion, want)
	}
	return out, true, nil
}

// A gRPC message on the wire: a compressed flag, a 4-byte big-endian length,
// the message.
const frameHeader = 5

// rewriteCapabilities applies offerVersion to a GetCapabilities response
// body, one uncompressed gRPC message.
func rewriteCapabilities(body []byte, want semVer) ([]byte, bool, error) {
	if len(body) < frameHeader {
		return nil, false, fmt.Errorf("response of %d bytes: no gRPC message", len(body))
	}
	if body[0] != 0 {
		return nil, false, errors.New("compressed response")
	}
	n := binary.BigEndian.Uint32(body[1:frameHeader])
	if uint64(n) != uint64(len(body)-frameHeader) {
		return nil, false, fmt.Errorf("gRPC message of %d bytes in a body of %d", n, len(body))
	}
	msg, changed, err := offerVersion(body[frameHeader:], want)
	if err != nil || !changed {
		return body, false, err
	}
	out := make([]byte, frameHeader, frameHeader+len(msg))
	binary.BigEndian.PutUint32(out[1:], uint32(len(msg)))
	return append(out, msg...), true, nil
}
