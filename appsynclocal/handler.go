package appsynclocal

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/companyintel/mcp-server/appsynclocal/graph"
)

// maxRequestBody bounds a GraphQL request, far above any real one.
const maxRequestBody = 1 << 20

// serveGraphQL is the AppSync endpoint: read, authenticate, apply faults,
// execute, answer.
func (b *Backend) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w.Header().Set("x-amzn-RequestId", requestID())
	body, params, ok := readRequest(w, r)
	if !ok {
		return
	}
	id, err := authenticate(b.auths, r, body)
	if err != nil {
		writeErrors(w, http.StatusUnauthorized, "UnauthorizedException", err.Error())
		b.log.Debug("request refused", "reason", err.Error())
		return
	}

	op := operationName(params)
	p := b.faults.take(op)
	if p.answer != nil {
		b.log.Info("fault injected", "operation", op, "fault", p.answer.String())
	}
	if p.delay > 0 && !sleep(r.Context(), p.delay) {
		return // the caller gave up while we were slow, as intended
	}
	if p.answer != nil && (p.answer.Kind == FaultHTTP || p.answer.Kind == FaultThrottle) {
		writeFaultAnswer(w, p.answer)
		return
	}

	ctx := context.WithValue(r.Context(), identityKey{}, id)
	ctx = graph.WithOwner(ctx, id.Subject)
	var partial *partialState
	if p.answer != nil && p.answer.Kind == FaultPartial {
		ctx, partial = withPartial(ctx, p.answer.Field)
	}
	status, answer := b.execute(ctx, params, partial)
	out, err := encode(answer)
	if err != nil { // only a bug gets here: answers are built from plain values
		writeErrors(w, http.StatusInternalServerError, graph.TypeInternal, "The answer could not be encoded.")
		return
	}
	if p.answer != nil && p.answer.Kind == FaultMalformed {
		out = out[:len(out)/2] // as if the connection were cut mid-answer
	}
	writeBody(w, status, out)
	if b.log.Enabled(r.Context(), slog.LevelDebug) {
		attrs := []any{"operation", op, "method", id.Method, "status", status, "duration", time.Since(start).String()}
		// The trace the caller asked to continue, as AppSync logs the
		// trace id of each request: it shows a trace reached the backend.
		if tp := r.Header.Get("traceparent"); tp != "" && len(tp) <= maxTraceparent {
			attrs = append(attrs, "traceparent", tp)
		}
		b.log.Debug("request", attrs...)
	}
}

// maxTraceparent bounds the traceparent header the log repeats (a valid
// one is 55 characters).
const maxTraceparent = 128

// readRequest reads a GraphQL request, or answers the error and reports
// false. The messages for empty and unparseable bodies are AppSync's, as its
// team documented them in graphql/graphql-over-http#81.
func readRequest(w http.ResponseWriter, r *http.Request) ([]byte, *graphql.RawParams, bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeErrors(w, http.StatusMethodNotAllowed, errorMalformedRequest, "Only POST is supported: send the GraphQL request as a JSON body.")
		return nil, nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err != nil {
		writeErrors(w, http.StatusRequestEntityTooLarge, errorMalformedRequest, "Request body is larger than 1 MiB.")
		return nil, nil, false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		writeErrors(w, http.StatusBadRequest, errorMalformedRequest, "Request body is empty.")
		return nil, nil, false
	}
	var params graphql.RawParams
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // as gqlgen's own handler: integers stay exact
	if err := dec.Decode(&params); err != nil || params.Query == "" {
		writeErrors(w, http.StatusBadRequest, errorMalformedRequest, "Unable to parse GraphQL query.")
		return nil, nil, false
	}
	return body, &params, true
}

// execute runs one operation and returns the HTTP status and the answer.
// Like AppSync (graphql/graphql-over-http#81), a query that fails to parse or
// validate is answered 200 with "data": null and errors without errorType,
// and so is every executed request, whatever its errors.
func (b *Backend) execute(ctx context.Context, params *graphql.RawParams, partial *partialState) (int, wireResponse) {
	ctx = graphql.StartOperationTrace(ctx)
	now := graphql.Now()
	params.ReadTime = graphql.TraceTiming{Start: now, End: now}
	opCtx, errs := b.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := b.exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs)
		return http.StatusOK, toWire(resp)
	}
	if opCtx.Operation.Operation == ast.Subscription {
		return http.StatusBadRequest, wireResponse{Errors: []wireError{{
			ErrorType: errorMalformedRequest,
			Message:   "Subscriptions are not served by this backend.",
		}}}
	}
	handler, ctx := b.exec.DispatchOperation(ctx, opCtx)
	resp := handler(ctx)
	if resp == nil { // the request was cancelled
		return http.StatusOK, wireResponse{Data: json.RawMessage("null")}
	}
	answer := toWire(resp)
	if partial != nil && !partial.done.Load() {
		// The selection had no field the fault could fail without losing all
		// data; report the failure on the first root field instead.
		answer.Errors = append(answer.Errors, wireError{
			ErrorType: errorResolverFailed,
			Message:   "A resolver failed (injected fault).",
			Path:      []any{firstRootKey(opCtx.Operation)},
		})
	}
	return http.StatusOK, answer
}

// operationName is the request's operation name, for scoping faults: the
// one given, or the name of the document's only operation.
func operationName(p *graphql.RawParams) string {
	if p.OperationName != "" {
		return p.OperationName
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: p.Query})
	if err != nil || len(doc.Operations) != 1 {
		return ""
	}
	return doc.Operations[0].Name
}

// firstRootKey is the response key of an operation's first field.
func firstRootKey(op *ast.OperationDefinition) string {
	for _, sel := range op.SelectionSet {
		if f, ok := sel.(*ast.Field); ok {
			return f.Alias
		}
	}
	return ""
}

// sleep waits d, or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// requestID makes an x-amzn-RequestId, which AppSync sends on every answer.
func requestID() string {
	b := make([]byte, 16)
	rand.Read(b)
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
