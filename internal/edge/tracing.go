package edge

import (
	"context"

	"github.com/companyintel/mcp-server/internal/ops/telemetry"
)

// traceStdio is the stdio edge's Observe hook: one server span per
// request, nil when tracing is off.
func traceStdio(tr *telemetry.Tracing, sess *stdioSession) func(context.Context, Frame) (context.Context, func(*Error)) {
	if tr == nil {
		return nil
	}
	return func(ctx context.Context, f Frame) (context.Context, func(*Error)) {
		ctx, span := tr.StartServer(ctx, telemetry.Request{
			Method: f.Method, ID: f.ID.Text(), Params: f.Params,
			Transport: telemetry.Pipe, ProtocolVersion: sess.ProtocolVersion(),
		})
		return ctx, func(e *Error) {
			var o telemetry.Outcome
			if e != nil {
				o.Code, o.Message = e.Code, e.Message
			}
			telemetry.Finish(span, o)
		}
	}
}
