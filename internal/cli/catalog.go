package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/tools/feedback"
)

// catalog is `mcp-server catalog`: the catalogue as canonical JSON
// (app.CatalogueJSON), or with --hash its SHA-256, the hash the start-up
// line, the status resource and check name.
func catalog(_ context.Context, args []string, _ []string, stdio app.Stdio) int {
	fs := newFlagSet("catalog")
	hash := fs.Bool("hash", false, "print the catalogue's SHA-256 instead of the catalogue")
	withFeedback := fs.Bool("feedback-tool", false, "the catalogue of a server started with --feedback-tool: the default tools and "+feedback.Name)
	if code, done := parse(fs, args, stdio, "usage: mcp-server catalog [--hash] [--feedback-tool]"); done {
		return code
	}
	b, err := app.CatalogueJSON(*withFeedback)
	if err != nil {
		fmt.Fprintln(stdio.Err, "mcp-server catalog:", err)
		return exitFailed
	}
	if *hash {
		sum := sha256.Sum256(b)
		fmt.Fprintln(stdio.Out, hex.EncodeToString(sum[:]))
		return 0
	}
	_, _ = stdio.Out.Write(b)
	return 0
}

// newFlagSet is a subcommand's flag set, which prints nothing by itself:
// parse says what went wrong in one line, and --help prints the usage.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp-server "+name, flag.ContinueOnError)
	fs.SetOutput(nilWriter{})
	fs.Usage = func() {}
	return fs
}

// parse parses a subcommand's flags. done says the command is over, with
// code: --help printed the usage on stdout (0), or a mistake was refused in one line
// naming the flag (2). An argument left over is a mistake too.
func parse(fs *flag.FlagSet, args []string, stdio app.Stdio, usage string) (code int, done bool) {
	err := fs.Parse(args)
	if err == flag.ErrHelp {
		fmt.Fprintln(stdio.Out, usage)
		config.PrintDefaults(stdio.Out, fs)
		return 0, true
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q; flags start with --", fs.Arg(0))
	} else if err != nil {
		err = config.FlagError(fs, err)
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "%s: %v\n", fs.Name(), err)
		return exitMisusage, true
	}
	return 0, false
}

// nilWriter discards what the flag package would print on its own.
type nilWriter struct{}

func (nilWriter) Write(p []byte) (int, error) { return len(p), nil }
