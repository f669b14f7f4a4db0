// Command reapiproxy is a gRPC pass-through between Bazel and a Remote
// Execution API server that offers Bazel an API version the server left
// out. Bazel 7.7.1 speaks REAPI 2.0 only and refuses a server whose range
// starts above it, as buildbox-casd 1.4.30's does (2.1 to 2.12): the proxy
// adds deprecated_api_version 2.0 to the GetCapabilities response, which
// Bazel accepts with a warning. Every other call, and a GetCapabilities
// response that already reaches 2.0, goes through byte for byte.
//
//	reapiproxy -upstream 127.0.0.1:PORT [-listen 127.0.0.1:0] [-port-file F]
//
// Both sides are cleartext HTTP/2 (grpc://). With -port-file the proxy
// writes the port it listens on to F once it accepts calls. On SIGINT or
// SIGTERM it prints how many calls it forwarded, by method, and how many
// GetCapabilities responses it rewrote, and exits. tests/bazel/run.sh
// --bazel7 runs it in front of buildbox-casd; see docs/bazel.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "`address` to accept gRPC calls on")
	upstream := flag.String("upstream", "", "`host:port` of the REAPI server (cleartext gRPC)")
	portFile := flag.String("port-file", "", "write the port listened on to `file`")
	api := flag.String("api", "2.0", "the REAPI `version` to offer (major.minor)")
	flag.Parse()
	log.SetFlags(0)
	if *upstream == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	want, err := parseVersion(*api)
	if err != nil {
		log.Fatalf("reapiproxy: -api: %v", err)
	}
	if err := run(*listen, *upstream, *portFile, want); err != nil {
		log.Fatalf("reapiproxy: %v", err)
	}
}

func run(listen, upstream, portFile string, want semVer) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	p := newProxy(upstream, want)
	srv := &http.Server{Handler: p, Protocols: new(http.Protocols)}
	srv.Protocols.SetUnencryptedHTTP2(true)
	if portFile != "" {
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		if err := os.WriteFile(portFile+".tmp", []byte(port+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(portFile+".tmp", portFile); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	log.Printf("reapiproxy: %s -> %s, offering REAPI %s", ln.Addr(), upstream, want)
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	log.Printf("reapiproxy: %d calls forwarded, %d GetCapabilities responses rewritten (%s)",
		p.calls.Load(), p.rewritten.Load(), p.methodCounts())
	return nil
}

// parseVersion reads "MAJOR.MINOR".
func parseVersion(s string) (semVer, error) {
	maj, min, ok := strings.Cut(s, ".")
	if !ok {
		return semVer{}, fmt.Errorf("%q is not MAJOR.MINOR", s)
	}
	a, err1 := strconv.ParseUint(maj, 10, 32)
	b, err2 := strconv.ParseUint(min, 10, 32)
	if err1 != nil || err2 != nil {
		return semVer{}, fmt.Errorf("%q is not MAJOR.MINOR", s)
	}
	return semVer{major: a, minor: b}, nil
}
