package edge

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
)

// StartupGCPercent is the garbage collector's target while a stdio server
// starts: the heap may grow to four times the live heap (at least 16 MB)
// before the first collection.
//
// Why: package initialisation alone leaves 2.5 MB on the heap (the AWS
// SDK's endpoint tables and rules, mcp-go's JSON Schema compiler), and
// building the catalogue and answering the handshake take it past the
// default first target, 4 MB. That one collection, in a process a few
// milliseconds old, cost about 4 ms of the 44 ms to the first tools/list
// answer (BENCHMARKS.md, "Against the floor"); a bare mcp-go server never
// collects before its first answer. The client waits on that answer; the
// collection can wait for it too, and GOGC takes over from there.
const StartupGCPercent = 400

// RelaxStartupGC sets the collector's target to StartupGCPercent with
// setPercent (debug.SetGCPercent) and returns what restores the previous
// one, once, whoever calls it first. An operator's own GOGC is left as it
// is, and then restoring does nothing.
func RelaxStartupGC(getenv func(string) string, setPercent func(int) int) (restore func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	previous := setPercent(StartupGCPercent)
	return sync.OnceFunc(func() { setPercent(previous) })
}

// restoreGCAfterFirstAnswer calls restore once the first request other
// than the handshake has been answered: the catalogue or a call, whatever
// the client asks first.
func restoreGCAfterFirstAnswer(restore func(), next MessageHandler) MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		res, err := next(ctx, method, msg)
		if method != "initialize" && !strings.HasPrefix(method, "notifications/") {
			restore()
		}
		return res, err
	}
}
