package qualify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/app"
)

// mcpServer is one server assembled by app.Run from command-line flags, as
// the binary would be, served over stdio pipes and driven by mcp-go's client.
type mcpServer struct {
	name   string
	c      *client.Client
	cancel context.CancelFunc
	done   chan error
	log    *lockedBuffer
}

// startServer runs app.Run with args (the flags of a run) and initializes a
// client session with it.
func startServer(ctx context.Context, name string, args []string, getenv func(string) string) (*mcpServer, error) {
	cfg, err := app.ParseConfig(args, getenv, io.Discard)
	if err != nil {
		return nil, fmt.Errorf("server %s: flags %v: %w", name, args, err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	s := &mcpServer{name: name, cancel: cancel, done: make(chan error, 1), log: &lockedBuffer{}}
	go func() {
		err := app.Run(ctx, cfg, app.Stdio{In: inR, Out: outW, Err: s.log}, getenv)
		outW.Close()
		inR.Close()
		s.done <- err
	}()
	s.c = client.NewClient(transport.NewIO(outR, inW, nil))
	if err := s.c.Start(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("server %s: %w", name, err)
	}
	initCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	if _, err := s.c.Initialize(initCtx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "qualify", Version: "1"},
	}}); err != nil {
		s.Close()
		return nil, fmt.Errorf("server %s did not initialize: %w; its log: %.2000s", name, err, s.log.String())
	}
	return s, nil
}

// Close ends the session (the server sees its input end) and waits for it.
func (s *mcpServer) Close() {
	s.c.Close()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cancel()
		<-s.done
	}
	s.cancel()
}

// call is one tools/call and what it cost: the result, its size as JSON on
// the wire, and the time from request to answer.
type call struct {
	res     *mcp.CallToolResult
	bytes   int
	latency time.Duration
}

func (s *mcpServer) call(ctx context.Context, tool string, args map[string]any) (call, error) {
	start := time.Now()
	res, err := s.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	lat := time.Since(start)
	if err != nil {
		return call{}, fmt.Errorf("%s over MCP (%s server): %w", tool, s.name, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return call{}, err
	}
	return call{res: res, bytes: len(b), latency: lat}, nil
}

// decode reads a successful result's structured content (or, lacking it,
// the JSON of its text) into out.
func (c call) decode(out any) error {
	if c.res.IsError {
		return fmt.Errorf("unexpected error result: %s", c.text())
	}
	var raw []byte
	if c.res.StructuredContent != nil {
		b, err := json.Marshal(c.res.StructuredContent)
		if err != nil {
			return err
		}
		raw = b
	} else {
		raw = []byte(c.text())
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("result is not the JSON expected: %v", err)
	}
	return c.plainText(raw)
}

// plainText checks the text a model is given beside structured content
// (issue 26): written for it, not the JSON again, and naming every id and
// the note the structured answer holds, for hosts that pass on only the
// text.
func (c call) plainText(structured []byte) error {
	if c.res.StructuredContent == nil {
		return nil
	}
	text := c.text()
	if json.Valid([]byte(text)) {
		return fmt.Errorf("the text content is the structured JSON again, not text for the model: %.200s", text)
	}
	var v any
	if err := json.Unmarshal(structured, &v); err != nil {
		return err
	}
	want := idsIn(v)
	if m, ok := v.(map[string]any); ok {
		if note, ok := m["note"].(string); ok {
			want = append(want, note)
		}
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			return fmt.Errorf("the text content lacks %q, which the structured answer holds: %.300s", w, text)
		}
	}
	return nil
}

// idsIn collects every "id" member's string value in v, at any depth.
func idsIn(v any) []string {
	var ids []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "id" {
				ids = append(ids, s)
			}
			ids = append(ids, idsIn(e)...)
		}
	case []any:
		for _, e := range x {
			ids = append(ids, idsIn(e)...)
		}
	}
	return ids
}

// text is the result's first text content.
func (c call) text() string {
	for _, ct := range c.res.Content {
		if t, ok := ct.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// class is an error result's class, read from where the server puts the
// machine-readable details: the result's _meta, or structuredContent.error.
func (c call) class() string {
	if !c.res.IsError {
		return ""
	}
	var probe []any
	if c.res.Meta != nil {
		probe = append(probe, c.res.Meta.AdditionalFields)
	}
	probe = append(probe, c.res.StructuredContent)
	for _, p := range probe {
		b, _ := json.Marshal(p)
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if cls := findClass(m, 0); cls != "" {
			return cls
		}
	}
	return ""
}

// findClass looks for an error's class ("class" or "code" naming a string)
// in m or the objects nested in it.
func findClass(m map[string]any, depth int) string {
	for _, k := range []string{"class", "code"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	if depth > 3 {
		return ""
	}
	for _, v := range m {
		if sub, ok := v.(map[string]any); ok {
			if s := findClass(sub, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// lockedBuffer is a server's log, written by it and read on failure.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
