package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/ops/telemetry"
	"github.com/companyintel/mcp-server/tools"
)

// maxConcurrentCalls bounds the requests served at once on stdio; more wait
// their turn. A call mostly waits on the backend, so this is generous
// (mcp-go's own default of 5 workers cost an agent's sixth parallel call a
// backend round trip: BENCHMARKS.md, +59 ms p50 at 8 callers).
const maxConcurrentCalls = 32

// StdioOptions are what ServeStdio needs besides the server and the streams.
type StdioOptions struct {
	// Logger takes the edge's records (refusals, cancellations).
	Logger *slog.Logger
	// Identity is who the requests act as; every request but the handshake
	// and the catalogue waits for it (identity.go). Required.
	Identity Identity
	// CheckPrompt, when set, checks a prompts/get request before mcp-go
	// serves it; a non-nil *Error is the answer (mcp-go answers -32603 for
	// a prompt handler's error).
	CheckPrompt func(msg []byte) *Error
	// AfterFirstAnswer, when set, is called once the first request after
	// the handshake is answered (startgc.go).
	AfterFirstAnswer func()
	// Tracing, when set, gives each request a server span.
	Tracing *telemetry.Tracing
	// Catalogue, when set, holds tools/list and tools/call until it is
	// closed: the tools served depend on what start-up learns of the
	// backend (its schema extensions), within a bounded time.
	Catalogue <-chan struct{}
	// EndInput, when closed, ends the input as the client closing it would
	// (Stdio.EndInput): the server stops for a reason of its own and still
	// owes answers.
	EndInput <-chan struct{}
	// Tasks, when set, is the tasks extension (tasks.go).
	Tasks Tasks
}

// ServeStdio serves s on one client's byte streams (the process's stdio)
// until in ends or ctx is done. Every line passes the JSON-RPC rules
// ([Stdio], [Parse]) before mcp-go sees it; mcp-go's own StdioServer is not
// used, because it answers cancelled requests, loses large ids and cancels
// work in flight at end of input (mcpgo_workarounds_test.go).
func ServeStdio(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer, o StdioOptions) error {
	if o.Identity == nil {
		return errors.New("edge.ServeStdio: StdioOptions.Identity is required: every request but the handshake acts as it")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	sess := &stdioSession{notes: make(chan mcp.JSONRPCNotification, 100)}
	if err := s.RegisterSession(ctx, sess); err != nil {
		return err
	}
	defer s.UnregisterSession(ctx, sess.SessionID())
	ctx = s.WithContext(ctx, sess)

	var h MessageHandler = tasksHandler(o.Tasks, mcpHandler(s, o.CheckPrompt))
	h = waitForIdentity(o.Identity, h)
	if o.Catalogue != nil {
		h = waitForCatalogue(o.Catalogue, h)
	}
	if o.AfterFirstAnswer != nil {
		h = restoreGCAfterFirstAnswer(o.AfterFirstAnswer, h)
	}

	lines := &Stdio{
		Handler:      h,
		Logger:       o.Logger,
		Limit:        maxConcurrentCalls,
		Bounded:      []string{string(mcp.MethodToolsCall), string(mcp.MethodResourcesRead)},
		EndWithInput: []string{string(mcp.MethodSubscriptionsListen)},
		EndInput:     o.EndInput,
		Observe:      traceStdio(o.Tracing, sess),
	}
	sess.lines = lines
	pumpCtx, stopPump := context.WithCancel(ctx)
	var pumped sync.WaitGroup
	pumped.Go(func() { pumpNotifications(pumpCtx, sess.notes, lines, o.Logger) })
	err := lines.Serve(ctx, in, out)
	stopPump()
	pumped.Wait()
	return err
}

// pumpNotifications writes what mcp-go sends on its own (list changes,
// progress) to the client.
func pumpNotifications(ctx context.Context, notes <-chan mcp.JSONRPCNotification, lines *Stdio, logger *slog.Logger) {
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
			lines.Notify(b)
		}
	}
}

// stdioSession is the one client of a stdio server, as mcp-go sees it: it
// remembers what initialize (or a 2026-07-28 request's _meta) said about
// the client, so that mcp-go answers in the negotiated protocol version.
type stdioSession struct {
	notes       chan mcp.JSONRPCNotification
	lines       *Stdio // carries the server's own requests (elicitation)
	initialized atomic.Bool
	clientInfo
	version atomic.Pointer[string]
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
	return s.lines != nil && s.GetClientCapabilities().Elicitation != nil
}

// RequestElicitation asks the client to ask its user (elicitation/create)
// and waits for the answer, within the edge's deadline. mcp-go calls it for
// a tool whose handler asked for input (a write to confirm) when the
// client speaks 2025-11-25; a 2026-07-28 client gets the question in the
// result instead and calls again.
func (s *stdioSession) RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if s.lines == nil {
		return nil, server.ErrElicitationNotSupported
	}
	raw, err := s.lines.Call(ctx, string(mcp.MethodElicitationCreate), req.Params)
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
		return nil, fmt.Errorf("the client's answer to elicitation/create has action %q; accept, decline or cancel were expected", Excerpt(string(res.Action), 40))
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

// ProtocolVersion is the version negotiated by initialize.
func (s *stdioSession) ProtocolVersion() string { return valueOf(s.version.Load()) }

// SetProtocolVersion records the version negotiated by initialize.
func (s *stdioSession) SetProtocolVersion(v string) { s.version.Store(&v) }
