// Package edge is the way a request comes in, in front of mcp-go: the
// JSON-RPC 2.0 rules every incoming MCP message is checked against, the
// answers to messages that break them, and one entry per transport.
//
//   - [ServeStdio] serves one client over its byte streams: each line is
//     read ([Stdio]), checked ([Parse]), served concurrently by mcp-go
//     ([mcpHandler]) once the server's identity is known ([Identity]), and
//     answered with the client's id as sent ([ResultReply], [ErrorReply]).
//   - [Handler] serves /mcp (Streamable HTTP, stateless): the Host and
//     Origin guard ([Guard]), the body read once through its cap and parsed
//     ([ReadMessage]: the [Message] carried in the request's context, which
//     the scope check, the metrics, tracing and the hand-off to mcp-go all
//     read), the deadline, authentication, then [httpEdge]: a request that
//     mcp-go's Streamable HTTP handler would only check and pass on is
//     answered by the MCPServer directly, as on stdio ([direct]); anything
//     else goes through that handler, whose answers httpEdge rewrites so
//     ids stay exact and words plain. [Serve] runs the listener with
//     header timeouts and a bounded drain.
//
// Both transports use the same checks ([Parse]) and the same plain words for
// mcp-go's errors ([plainError]). The edge knows nothing of tokens or tools:
// package resource authenticates, and package app assembles the parts.
//
// The rules, in the order a message meets them:
//
//   - At most [MaxFrame] bytes; a longer line is skipped to its end and
//     answered, and the session goes on.
//   - Valid UTF-8 and valid JSON, else -32700 naming the byte where it went
//     wrong.
//   - One JSON object. An array is a batch: JSON-RPC 2.0 allows them, MCP
//     2025-11-25 removed them, so a batch gets one -32600 saying so.
//   - The members jsonrpc ("2.0"), id (a string or an integer: MCP forbids
//     null, and objects, arrays, booleans and fractions are not ids), method
//     (a non-empty string) and params (an object) each appear at most once
//     and are spelt exactly (Go's decoder, which mcp-go uses, would take
//     "ID" or "Method" as well, so a frame could mean one thing here and
//     another there).
//   - A frame with a method and no id is a notification: never answered,
//     even when malformed (it is logged and dropped). A frame with an id and
//     a result or error but no method is an answer from the client: on
//     stdio it goes to the server's own request of that id ([Stdio.Call],
//     e.g. elicitation/create), and one that names no waiting request is
//     dropped; on HTTP the server sends no requests, so it is dropped.
//     Anything else with an id is a request and gets exactly one answer,
//     unless the client cancels it.
//
// Where mcp-go v1.2.1 is at fault the edge compensates, and each such
// workaround has its own test named after mcp-go's behaviour, which first
// shows mcp-go still doing it: mcpgo_workarounds_test.go lists them (ids
// through float64 and HTML-escaped, ids MCP forbids, members read as Go's
// decoder reads them, a request with a result left unanswered,
// cancellation by the printed id, requests cancelled at end of input,
// encoding/json's and base64's words, "not found" twice, prompt handler
// errors as -32603, panics let through, structured content encoded twice,
// DELETE answered 200, request headers checked only in its HTTP handler). When one of those tests fails, mcp-go has changed:
// delete the workaround it names, and the test.
package edge
