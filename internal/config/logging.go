package config

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// NewLogger returns the server's logger, writing to w (stderr: stdout belongs
// to the protocol). format is "text" or "json"; level is a slog level name.
func NewLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "text", "":
		// The text form starts at level=, as the design writes the start-up
		// line: MCP clients stamp each stderr line with their own time, and
		// json logs keep the time for machines.
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		}
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format: %q is not text or json", format)
}

// validLevel reports whether level names a slog level.
func validLevel(level string) bool {
	var lv slog.Level
	return lv.UnmarshalText([]byte(strings.ToUpper(level))) == nil
}

// validFormat reports whether format is one NewLogger writes.
func validFormat(format string) bool {
	switch strings.ToLower(format) {
	case "text", "", "json":
		return true
	}
	return false
}
