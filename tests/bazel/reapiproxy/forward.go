package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// maxCapabilities bounds the GetCapabilities response the proxy reads
// whole; a real one is a few hundred bytes.
const maxCapabilities = 1 << 20

// proxy forwards gRPC calls (HTTP/2 requests) to one upstream server over
// cleartext HTTP/2: headers, message bytes and trailers as they come, but
// for the GetCapabilities response, which offerVersion may rewrite.
type proxy struct {
	upstream  string // host:port
	want      semVer // the API version the client speaks
	transport *http.Transport
	calls     atomic.Int64
	rewritten atomic.Int64
	mu        sync.Mutex
	methods   map[string]int // calls by method name
	logf      func(format string, args ...any)
}

func newProxy(upstream string, want semVer) *proxy {
	tr := &http.Transport{
		Protocols: new(http.Protocols),
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", upstream)
		},
		DisableCompression: true,
	}
	tr.Protocols.SetUnencryptedHTTP2(true)
	return &proxy{upstream: upstream, want: want, transport: tr, methods: map[string]int{}, logf: log.Printf}
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.calls.Add(1)
	p.mu.Lock()
	p.methods[r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]]++
	p.mu.Unlock()
	req, err := http.NewRequestWithContext(r.Context(), r.Method, "http://"+p.upstream+r.URL.RequestURI(), r.Body)
	if err != nil {
		p.status(w, 13, err) // INTERNAL
		return
	}
	req.Header = r.Header.Clone()
	req.Host = r.Host
	req.ContentLength = r.ContentLength
	resp, err := p.transport.RoundTrip(req)
	if err != nil {
		p.status(w, 14, err) // UNAVAILABLE
		return
	}
	defer resp.Body.Close()

	for k, vv := range resp.Header {
		w.Header()[k] = vv
	}
	if r.URL.Path == capabilitiesMethod && resp.StatusCode == http.StatusOK {
		p.capabilities(w, resp)
	} else {
		w.WriteHeader(resp.StatusCode)
		copyFlushing(w, resp.Body)
	}
	// Read to the end, the trailers (grpc-status) are in resp.Trailer.
	for k, vv := range resp.Trailer {
		w.Header()[http.TrailerPrefix+k] = vv
	}
}

// capabilities forwards a GetCapabilities response with the version the
// client speaks offered.
func (p *proxy) capabilities(w http.ResponseWriter, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCapabilities+1))
	if err == nil && len(body) > maxCapabilities {
		err = errors.New("GetCapabilities response over 1 MiB")
	}
	if err != nil {
		p.status(w, 14, err)
		return
	}
	if len(body) > 0 {
		out, changed, err := rewriteCapabilities(body, p.want)
		switch {
		case err != nil:
			p.logf("reapiproxy: GetCapabilities response left as it is: %v", err)
		case changed:
			p.rewritten.Add(1)
			p.logf("reapiproxy: GetCapabilities: deprecated_api_version %s offered", p.want)
			body = out
			w.Header().Del("Content-Length")
		}
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(body)
	io.Copy(io.Discard, resp.Body) // to EOF: the trailers
}

// copyFlushing copies a response body, each chunk sent on as it comes: a
// streaming call's messages must not wait in a buffer. Nothing is flushed
// before the first chunk, so that a response without a body (a gRPC
// trailers-only error) leaves as one HEADERS frame.
func copyFlushing(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			rc.Flush()
		}
		if err != nil {
			return
		}
	}
}

// status answers a call with a gRPC error and no message (trailers-only).
func (p *proxy) status(w http.ResponseWriter, code int, err error) {
	p.logf("reapiproxy: %v", err)
	h := w.Header()
	h.Set("Content-Type", "application/grpc")
	h.Set("Grpc-Status", strconv.Itoa(code))
	h.Set("Grpc-Message", grpcMessage("reapiproxy: "+err.Error()))
	w.WriteHeader(http.StatusOK)
}

// grpcMessage percent-encodes a grpc-message value as gRPC's HTTP/2
// mapping asks: every byte outside printable ASCII, and '%'.
func grpcMessage(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// methodCounts lists the calls forwarded by method, "Name N" each, by name.
func (p *proxy) methodCounts() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for m, n := range p.methods {
		out = append(out, fmt.Sprintf("%s %d", m, n))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
