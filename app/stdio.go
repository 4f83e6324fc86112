package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/ops/telemetry"
	"github.com/companyintel/mcp-server/tools"
)

// maxConcurrentCalls bounds the requests served at once on stdio; more wait
// their turn. A call mostly waits on the backend, so this is generous
// (mcp-go's own default of 5 workers cost an agent's sixth parallel call a
// backend round trip: BENCHMARKS.md, +59 ms p50 at 8 callers).
const maxConcurrentCalls = 32

// serveStdio serves MCP on the process's stdio until the input ends or ctx
// is done. Every line passes the JSON-RPC edge (package edge) before
// mcp-go sees it; mcp-go's own StdioServer is not used, because it answers
// cancelled requests, loses large ids and cancels work in flight at end of
// input (see the edge package doc). Requests that need the server's
// identity wait for id (identity.go); restoreGC is called once the first
// request after the handshake is answered (startgc.go).
func serveStdio(ctx context.Context, s *server.MCPServer, id *identity, restoreGC func(), logger *slog.Logger, stdio Stdio, tr *telemetry.Tracing, endInput <-chan struct{}) error {
	sess := &stdioSession{notes: make(chan mcp.JSONRPCNotification, 100)}
	if err := s.RegisterSession(ctx, sess); err != nil {
		return err
	}
	defer s.UnregisterSession(ctx, sess.SessionID())
	ctx = s.WithContext(ctx, sess)

	edge := &edge.Stdio{
		Handler:      restoreGCAfterFirstAnswer(restoreGC, waitForIdentity(id, mcpHandler(s))),
		Logger:       logger,
		Limit:        maxConcurrentCalls,
		Bounded:      []string{string(mcp.MethodToolsCall), string(mcp.MethodResourcesRead)},
		EndWithInput: []string{string(mcp.MethodSubscriptionsListen)},
		EndInput:     endInput,
		Observe:      traceStdio(tr, sess),
	}
	sess.edge = edge
	pumpCtx, stopPump := context.WithCancel(ctx)
	var pumped sync.WaitGroup
	pumped.Go(func() { pumpNotifications(pumpCtx, sess.notes, edge, logger) })
	err := edge.Serve(ctx, stdio.In, stdio.Out)
	stopPump()
	pumped.Wait()
	return err
}

// pumpNotifications writes what mcp-go sends on its own (list changes,
// progress) to the client.
func pumpNotifications(ctx context.Context, notes <-chan mcp.JSONRPCNotification, edge *edge.Stdio, logger *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-notes:
			b, err := json.Marshal(n)
			if err != nil {
				logger.Error("could not encode a notification", "method", n.Method, "err", err.Error())
				continue
			}
			edge.Notify(b)
		}
	}
}

// stdioSession is the one client of a stdio server, as mcp-go sees it: it
// remembers what initialize (or a 2026-07-28 request's _meta) said about
// the client, so that mcp-go answers in the negotiated protocol version.
type stdioSession struct {
	notes        chan mcp.JSONRPCNotification
	edge         *edge.Stdio // carries the server's own requests (elicitation)
	initialized  atomic.Bool
	mu           sync.Mutex
	clientInfo   mcp.Implementation
	capabilities mcp.ClientCapabilities
	version      string
}

var (
	_ server.ClientSession              = (*stdioSession)(nil)
	_ server.SessionWithClientInfo      = (*stdioSession)(nil)
	_ server.SessionWithProtocolVersion = (*stdioSession)(nil)
	_ server.SessionWithElicitation     = (*stdioSession)(nil)
	_ tools.Elicitor                    = (*stdioSession)(nil)
)

// CanElicit reports whether the client declared elicitation at initialize:
// the write tools then ask its user to confirm within the call
// (tools.Elicitor).
func (s *stdioSession) CanElicit() bool {
	return s.edge != nil && s.GetClientCapabilities().Elicitation != nil
}

// RequestElicitation asks the client to ask its user (elicitation/create)
// and waits for the answer, within the edge's deadline. mcp-go calls it for
// a tool whose handler asked for input (a write to confirm) when the
// client speaks 2025-11-25; a 2026-07-28 client gets the question in the
// result instead and calls again.
func (s *stdioSession) RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if s.edge == nil {
		return nil, server.ErrElicitationNotSupported
	}
	raw, err := s.edge.Call(ctx, string(mcp.MethodElicitationCreate), req.Params)
	if err != nil {
		return nil, err
	}
	var res mcp.ElicitationResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the client's answer to elicitation/create is not an elicitation result: %w", err)
	}
	switch res.Action {
	case mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel:
	default:
		return nil, fmt.Errorf("the client's answer to elicitation/create has action %q; accept, decline or cancel were expected", edge.Excerpt(string(res.Action), 40))
	}
	return &res, nil
}

// SessionID names the session; stdio has one.
func (s *stdioSession) SessionID() string { return "stdio" }

// NotificationChannel carries notifications mcp-go sends to the client.
func (s *stdioSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notes }

// Initialize marks the handshake done.
func (s *stdioSession) Initialize() { s.initialized.Store(true) }

// Initialized reports whether the handshake is done.
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

// GetClientInfo returns what the client said it is.
func (s *stdioSession) GetClientInfo() mcp.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientInfo
}

// SetClientInfo records what the client said it is.
func (s *stdioSession) SetClientInfo(i mcp.Implementation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clientInfo = i
}

// GetClientCapabilities returns the client's declared capabilities.
func (s *stdioSession) GetClientCapabilities() mcp.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.capabilities
}

// SetClientCapabilities records the client's declared capabilities.
func (s *stdioSession) SetClientCapabilities(c mcp.ClientCapabilities) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.capabilities = c
}

// ProtocolVersion is the version negotiated by initialize.
func (s *stdioSession) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// SetProtocolVersion records the version negotiated by initialize.
func (s *stdioSession) SetProtocolVersion(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version = v
}
