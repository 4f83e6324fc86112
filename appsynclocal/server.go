package appsynclocal

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server serves a Backend over HTTP.
type Server struct {
	backend   *Backend
	http      *http.Server
	ln        net.Listener
	done      chan error
	closeOnce sync.Once
	closeErr  error
}

// Start serves on addr ("127.0.0.1:0" for a free loopback port) until Close.
func Start(cfg Config, addr string) (*Server, error) {
	return StartContext(context.Background(), cfg, addr)
}

// StartContext is Start, with NewContext's cancellable database build.
func StartContext(ctx context.Context, cfg Config, addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	b, err := NewContext(ctx, cfg)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return ServeBackend(b, ln), nil
}

// ServeBackend serves b on ln until Close, which also closes b. Listening
// before New lets a caller announce the address before a long database
// build: requests that arrive meanwhile wait in the listen queue.
func ServeBackend(b *Backend, ln net.Listener) *Server {
	s := &Server{
		backend: b,
		ln:      ln,
		done:    make(chan error, 1),
		http: &http.Server{
			Handler:           b.Handler(),
			ReadHeaderTimeout: 10 * time.Second,
		},
	}
	go func() { s.done <- s.http.Serve(ln) }()
	return s
}

// URL returns the GraphQL endpoint, e.g. http://127.0.0.1:41234/graphql.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/graphql" }

// Backend returns the backend being served.
func (s *Server) Backend() *Backend { return s.backend }

// Close stops serving, letting requests in flight finish for up to five
// seconds, then closes the backend. Closing again returns the first result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

func (s *Server) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.http.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.http.Close()
	}
	if serveErr := <-s.done; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return errors.Join(err, s.backend.Close())
}
