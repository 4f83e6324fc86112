package authn

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// IssuerServer is an Issuer on its own listener, for a backend that cannot
// mount the issuer's handler on its own mux.
type IssuerServer struct {
	*Issuer
	srv  *http.Server
	done chan struct{}
}

// StartIssuer listens on addr (such as "127.0.0.1:0") and serves a new
// issuer there. An empty c.URL becomes "http://<listen address>".
func StartIssuer(addr string, c IssuerConfig) (*IssuerServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("issuer listen: %w", err)
	}
	if c.URL == "" {
		c.URL = "http://" + ln.Addr().String()
	}
	iss, err := NewIssuer(c)
	if err != nil {
		ln.Close()
		return nil, err
	}
	s := &IssuerServer{
		Issuer: iss,
		srv:    iss.listen.server(iss.Handler()),
		done:   make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		// Serve returns http.ErrServerClosed after Close; any other error
		// means the listener broke, and clients then report the issuer
		// as unreachable, which is where an operator looks.
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Close stops the server, waiting up to five seconds for requests in flight.
func (s *IssuerServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	return err
}
