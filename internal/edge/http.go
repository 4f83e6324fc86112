package edge

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/ops/telemetry"
)

// HTTPOptions are what Handler needs besides the server.
type HTTPOptions struct {
	// Logger takes mcp-go's transport records.
	Logger *slog.Logger
	// Guard checks Host and Origin against DNS rebinding.
	Guard Guard
	// MaxBody caps a request body (DefaultMaxBody if 0).
	MaxBody int64
	// Timeout bounds each request: its context ends then.
	Timeout time.Duration
	// Observe, when set, wraps everything after the body is read (the
	// metrics, which read the Message ReadMessage left in the context).
	Observe func(http.Handler) http.Handler
	// Authenticate wraps mcp-go's handler: it puts the caller in the
	// request's context, or refuses the request. Required.
	Authenticate func(http.Handler) http.Handler
	// CheckPrompt, when set, checks a prompts/get request as on stdio
	// (StdioOptions.CheckPrompt).
	CheckPrompt func(msg []byte) *Error
	// Tracing, when set, gives each request a server span.
	Tracing *telemetry.Tracing
	// Tasks, when set, is the tasks extension (tasks.go).
	Tasks Tasks

	// viaMCPGoOnly sends every request through mcp-go's handler, for the
	// tests that hold direct's answers to it.
	viaMCPGoOnly bool
}

// Handler is /mcp: MCP Streamable HTTP, stateless, in front of s. A
// request meets, in this order: DELETE refused (405: no session to end),
// the Host and Origin guard, the body read once through its cap and parsed
// ([ReadMessage]: a malformed frame is refused in the words stdio uses),
// Observe, the request's deadline, Authenticate, then [httpEdge]: a request
// mcp-go's handler would only pass on is answered by the MCPServer
// directly (direct.go), anything else by that handler (exact ids, plain
// words, the prompt check, the span on both).
func Handler(s *server.MCPServer, o HTTPOptions) http.Handler {
	if o.Authenticate == nil {
		panic("edge.Handler: HTTPOptions.Authenticate is required: it names the caller of each request")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	// Stateless: no session ids, so any replica answers any request. The
	// standalone GET stream is off because without sessions every GET
	// would share one stream (mcp-go's stateless id is ""); 405 is the
	// answer the transport allows. Host checks are ours (Guard), which
	// also cover non-loopback deployments.
	transport := server.NewStreamableHTTPServer(s,
		server.WithStateLess(true),
		server.WithDisableStreaming(true),
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(o.Logger.With("component", "mcp-http")),
	)
	var d *direct
	if !o.viaMCPGoOnly {
		d = newDirect(s, transport, o.Logger, o.Tasks)
	}
	mcpHandler := httpEdge(o.Tracing, o.CheckPrompt, d, transport)
	h := Deadline(o.Timeout, o.Authenticate(mcpHandler))
	if o.Observe != nil {
		h = o.Observe(h)
	}
	h = o.Guard.Wrap(ReadMessage(o.MaxBody, h))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			MethodNotAllowed(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
