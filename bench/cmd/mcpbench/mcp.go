package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/bench/internal/tail"
)

// protocolVersion is the MCP revision every session speaks. Both servers
// accept it through the initialize handshake, which is what the MCP clients
// in use today (Claude Desktop, Cursor, VS Code) do; mcp-graphql's SDK
// answers with its own newest revision (2025-03-26), which the client
// accepts. Pinning it keeps mcp-go's client from first probing
// server/discover (2026-07-28), which mcp-graphql does not know, so that
// both servers are started and called the same way.
const protocolVersion = mcp.ProtocolVersion20251125

// startTimeout bounds a server's start, up to its first tools/list answer.
// The slowest start measured (--embedded building its database) takes about
// a second.
const startTimeout = time.Minute

// server is how to start one MCP server over stdio.
type server struct {
	name string
	dir  string // working directory; "" for the driver's
	bin  string
	args []string
	env  []string // the whole environment: nothing is inherited
}

// session is a running MCP server, connected and initialized.
type session struct {
	*client.Client
	name   string
	cmd    *exec.Cmd
	stderr *tail.Buffer
	cancel context.CancelFunc
}

// pid is the process id of what was spawned (for npx: npx itself).
func (s *session) pid() int { return s.cmd.Process.Pid }

// open spawns srv and connects to it, returning the time from spawning to
// the first tools/list answer: process start, runtime start-up, the
// initialize handshake and the tool catalogue, which is what an MCP client
// waits for before a conversation can use the server. The session lives
// until close or until ctx ends.
func open(ctx context.Context, srv server) (*session, time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &session{name: srv.name, stderr: tail.New(16 << 10), cancel: cancel}
	tr := transport.NewStdioWithOptions(srv.bin, nil, srv.args,
		// The command is built here so that it gets the driver's process
		// attributes and exactly srv.env: the transport would otherwise
		// append it to the driver's own environment.
		transport.WithCommandFunc(func(ctx context.Context, bin string, _ []string, args []string) (*exec.Cmd, error) {
			s.cmd = command(ctx, srv.dir, bin, args, srv.env)
			return s.cmd, nil
		}),
		transport.WithCommandStderrWriter(s.stderr),
	)
	s.Client = client.NewClient(tr, client.WithProtocolVersion(protocolVersion))

	start := time.Now()
	if err := s.Start(ctx); err != nil {
		cancel()
		return nil, 0, fmt.Errorf("%s: starting: %w", srv.name, err)
	}
	// The process lives on ctx; the handshake alone is bounded.
	hctx, hcancel := context.WithTimeout(ctx, startTimeout)
	defer hcancel()
	if _, err := s.Initialize(hctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcpbench", Version: "1"},
	}}); err != nil {
		return nil, 0, s.fail(fmt.Errorf("initialize: %w", err))
	}
	tools, err := s.ListTools(hctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, 0, s.fail(fmt.Errorf("tools/list: %w", err))
	}
	elapsed := time.Since(start)
	if len(tools.Tools) == 0 {
		return nil, 0, s.fail(errors.New("tools/list answered no tools"))
	}
	return s, elapsed, nil
}

// fail closes the session and returns err with the server's last stderr
// lines, which usually say why.
func (s *session) fail(err error) error {
	s.close()
	return fmt.Errorf("%s: %w\nstderr:\n%s", s.name, err, s.stderr)
}

// close ends the session: mcp-go's transport closes stdin (each server exits
// on end of input), waits, then signals and kills; canceling the context
// kills the process group as the last resort.
func (s *session) close() {
	s.Close()
	s.cancel()
}

// callTool calls a tool and fails on a JSON-RPC error or an isError result,
// so that a benchmark never times failures.
func (s *session) callTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	res, err := s.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
	if err != nil {
		return nil, fmt.Errorf("%s: tools/call %s: %w", s.name, name, err)
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: tools/call %s answered isError: %s", s.name, name, resultText(res))
	}
	return res, nil
}

// resultText is the text content of a result, joined.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// startSample is one measured start of a server.
type startSample struct {
	elapsed time.Duration
	mem     memory        // of the spawned process at its first tools/list answer
	cpu     time.Duration // its user+system CPU time by then: what the start cost, whatever else the machine was doing
}

// measureStart starts srv, waits for the first tools/list answer, reads the
// memory of the spawned process and shuts it down.
func measureStart(ctx context.Context, srv server) (startSample, error) {
	s, elapsed, err := open(ctx, srv)
	if err != nil {
		return startSample{}, err
	}
	defer s.close()
	mem, err := readMemory(s.pid())
	if err != nil {
		return startSample{}, fmt.Errorf("%s: %w", srv.name, err)
	}
	cpu, err := runTime(s.pid())
	if err != nil {
		return startSample{}, fmt.Errorf("%s: %w", srv.name, err)
	}
	return startSample{elapsed: elapsed, mem: mem, cpu: cpu}, nil
}
