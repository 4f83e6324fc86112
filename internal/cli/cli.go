// Package cli is the command line a person drives the server with: serving
// (the default), the subcommands check, catalog and demo-token, --version
// and --help. cmd/server hands it the process's arguments, environment and
// streams; it reads the configuration through package config and serves
// through package app, which know nothing of it.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/suggest"
)

// Exit codes: 2 says the command line or the environment needs fixing,
// 1 that something failed while running.
const (
	exitFailed   = 1
	exitMisusage = 2
)

// command is one subcommand: its name, what --help says of it, and how it
// runs (args are those after its name).
type command struct {
	name, help string
	run        func(ctx context.Context, args []string, environ []string, stdio app.Stdio) int
}

// commands are the subcommands, in the order --help lists them.
var commands = []command{
	{"check", "pre-flight: configuration, auth, backend and catalogue, then exit (takes the server's flags)", check},
	{"catalog", "print the tool catalogue as canonical JSON; --hash prints its SHA-256", catalog},
	{"demo-token", "mint a token from the embedded issuer for a user of an HTTP server (--server URL --user NAME)", demoToken},
}

// Main runs the command line args (without the program's name) with the
// process's environment (os.Environ) and standard streams, and returns its exit code: 0
// when all went well, 1 when serving or a check failed, 2 when the flags or
// the environment need fixing. stdout carries only the protocol when
// serving over stdio; what a person asked for (--help, --version, a
// subcommand's report) goes to stdout too, so it can be piped (--help | grep),
// and mistakes to stderr.
func Main(args []string, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stdio := app.Stdio{In: stdin, Out: stdout, Err: stderr}
	getenv := lookup(environ)
	if len(args) > 0 {
		for _, c := range commands {
			if args[0] == c.name {
				return c.run(context.Background(), args[1:], environ, stdio)
			}
		}
		if err := unknownCommand(args[0]); err != nil {
			fmt.Fprintln(stdio.Err, "mcp-server:", err)
			return exitMisusage
		}
	}
	cfg, err := config.Parse(args, getenv, app.ToolFacts())
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdio.Out)
		return 0
	case errors.Is(err, config.ErrVersion):
		return printVersion(stdio.Out, stdio.Err)
	case err != nil:
		// A misnamed variable may be why the configuration is wrong
		// (ALLOW_MUTATION set, the default kept): say so first.
		for _, w := range config.EnvironmentWarnings(environ) {
			fmt.Fprintln(stdio.Err, "mcp-server: warning:", w)
		}
		fmt.Fprintln(stdio.Err, "mcp-server:", err)
		return exitMisusage
	}
	cfg.Warnings = config.EnvironmentWarnings(environ)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := app.Run(ctx, cfg, stdio, getenv); err != nil {
		fmt.Fprintln(stdio.Err, "mcp-server:", err)
		if config.IsMisconfiguration(err) {
			return exitMisusage
		}
		return exitFailed
	}
	return 0
}

// lookup is os.Getenv over environ: the first of a name wins, as it does
// for os.Getenv.
func lookup(environ []string) func(string) string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, dup := m[k]; !dup {
				m[k] = v
			}
		}
	}
	return func(k string) string { return m[k] }
}

// unknownCommand refuses a first argument that is no flag but close to a
// subcommand's name ("chek"), naming the one meant. Anything else is left
// to the flags' own refusal (an argument where a flag was expected).
func unknownCommand(arg string) error {
	if strings.HasPrefix(arg, "-") {
		return nil
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	if near := suggest.Near(arg, names, 1); len(near) > 0 {
		return fmt.Errorf("unknown command %q; did you mean %s? (mcp-server --help lists the commands)", arg, near[0])
	}
	return nil
}

// printUsage is --help, on stdout: the commands, then every flag and
// environment variable (package config).
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: mcp-server [flags]")
	fmt.Fprintln(w, "       mcp-server COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.help)
	}
	fmt.Fprintf(w, "  %-12s %s\n", "--version", "print the version, VCS revision and catalogue hash")
	fmt.Fprintln(w)
	config.PrintUsage(w, app.ToolFacts())
}
