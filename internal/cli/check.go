package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/config"
)

// check is `mcp-server check`, the operator's pre-flight: with the same
// flags and environment as a run, it prints the effective configuration
// (never a secret), the auth method, principal and token expiry, whether the
// backend answers a cheap query and how fast, and the catalogue hash. It
// returns the exit code: 0 when everything holds, 1 when a check failed, 2
// when the configuration itself is wrong; each failure is printed with its
// fix. It serves nothing and writes nothing to the backend.
func check(ctx context.Context, args []string, environ []string, stdio app.Stdio) int {
	out := stdio.Out
	getenv := lookup(environ)
	cfg, err := config.Parse(args, getenv, app.ToolFacts())
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdio.Out, "Usage: mcp-server check [flags]: the server's flags, checked without serving")
		fmt.Fprintln(stdio.Out)
		config.PrintUsage(stdio.Out, app.ToolFacts())
		return 0
	}
	warnings := config.EnvironmentWarnings(environ)
	for _, w := range warnings {
		fmt.Fprintf(out, "WARN environment: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(out, "FAIL configuration: %v\n", err)
		return exitMisusage
	}
	printConfig(out, cfg)
	logger, err := config.NewLogger(stdio.Err, cfg.LogFormat, "warn")
	if err != nil {
		fmt.Fprintf(out, "FAIL configuration: %v\n", err)
		return exitMisusage
	}
	p, err := app.StartPreflight(ctx, cfg, logger, getenv)
	if err != nil {
		fmt.Fprintf(out, "FAIL start-up: %v\n", err)
		if _, isAuth := errors.AsType[*auth.Error](err); isAuth || errors.Is(err, auth.ErrNoCredentials) {
			fmt.Fprintln(out, "     fix: set the credentials of one method (OIDC_*, AWS_* or APPSYNC_API_KEY), or force one with --auth; see docs/operator.md, Configuration")
		} else {
			fmt.Fprintln(out, "     fix: the message names the flag or variable to change")
		}
		if config.IsMisconfiguration(err) {
			return exitMisusage
		}
		return exitFailed
	}
	defer p.Close()

	failed := false
	printAuth(out, p.Auth, time.Now())
	if took, err := p.ProbeBackend(ctx); err != nil {
		failed = true
		fmt.Fprintf(out, "FAIL backend: %s did not answer { __typename }: %v\n", p.Endpoint, err)
		fmt.Fprintf(out, "     fix: %s\n", backendFix(err, p, cfg))
	} else {
		fmt.Fprintf(out, "ok   backend: %s answered { __typename } in %d ms\n", p.Endpoint, took.Milliseconds())
	}
	if p.SharedLimits {
		if err := p.PingLimitStore(ctx); err != nil {
			failed = true
			fmt.Fprintf(out, "FAIL limit store: %s did not answer: %v\n", redactURL(cfg.RedisURL), err)
			fmt.Fprintf(out, "     fix: check %s and that this machine reaches it; without it, rate-limited tools are refused\n", cfg.Name("redis-url"))
		} else {
			fmt.Fprintf(out, "ok   limit store: %s answered\n", redactURL(cfg.RedisURL))
		}
	}
	// The same hash as the start-up line's catalog= and `catalog --hash`:
	// the contract, not what these flags happen to list.
	if hash, err := app.CatalogueHash(); err != nil {
		failed = true
		fmt.Fprintf(out, "FAIL catalogue: %v\n     fix: this is a bug in the server; report it with this output\n", err)
	} else {
		fmt.Fprintf(out, "ok   catalogue: sha256:%s (%d tools, %d resources, %d prompts)\n", hash, p.Counts.Tools, p.Counts.Resources, p.Counts.Prompts)
	}
	if failed {
		fmt.Fprintln(out, "check failed")
		return exitFailed
	}
	fmt.Fprintln(out, "check passed")
	return 0
}

// printConfig prints the effective configuration. It holds no secret: a
// Redis URL loses its user information.
func printConfig(w io.Writer, c config.Config) {
	fmt.Fprintln(w, "configuration:")
	if c.Embedded {
		dir := c.DataDir
		if dir == "" {
			dir = "(user cache dir)"
		}
		fmt.Fprintf(w, "  backend      embedded, %d companies, data dir %s\n", c.Companies, dir)
	} else {
		fmt.Fprintf(w, "  backend      %s\n", c.Endpoint)
	}
	transport := "stdio"
	if c.HTTP.Addr != "" {
		transport = "http on " + c.HTTP.Addr
	}
	fmt.Fprintf(w, "  transport    %s\n", transport)
	method := string(c.Auth)
	if method == "" {
		method = "chain (OIDC, SigV4, API key)"
	}
	fmt.Fprintf(w, "  auth         %s\n", method)
	writes := "off"
	if c.Mutations.Any() {
		writes = strings.Join(c.Mutations.Enabled(), ", ")
	}
	fmt.Fprintf(w, "  writes       %s\n", writes)
	if limits, err := app.RateLimits(c.RateLimits); err == nil {
		specs := make([]string, 0, len(limits))
		for tool, l := range limits {
			specs = append(specs, tool+"="+l.String())
		}
		slices.Sort(specs)
		fmt.Fprintf(w, "  rate limits  %s\n", strings.Join(specs, ", "))
	}
	store := "in this process"
	if c.RedisURL != "" {
		store = "redis " + redactURL(c.RedisURL)
	}
	fmt.Fprintf(w, "  limit store  %s\n", store)
	fmt.Fprintf(w, "  timeout      %s\n", c.Timeout)
}

// redactURL drops a URL's user information (a Redis password).
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}

// printAuth prints the credentials' method, principal and expiry.
func printAuth(w io.Writer, st auth.Status, now time.Time) {
	fmt.Fprintf(w, "ok   auth: %s as %s", st.Method, st.Principal)
	if st.TokenSource != "" {
		fmt.Fprintf(w, ", token from %s", st.TokenSource)
	}
	if st.Issuer != "" {
		fmt.Fprintf(w, ", issuer %s", st.Issuer)
	}
	if st.Region != "" {
		fmt.Fprintf(w, ", region %s", st.Region)
	}
	if st.CredentialSource != "" {
		fmt.Fprintf(w, ", credentials from %s", st.CredentialSource)
	}
	if !st.TokenExpiry.IsZero() {
		fmt.Fprintf(w, ", token expires %s (in %s)", st.TokenExpiry.UTC().Format(time.RFC3339), st.TokenExpiry.Sub(now).Round(time.Second))
	} else {
		fmt.Fprint(w, ", no token expiry")
	}
	fmt.Fprintln(w)
}

// backendFix says what to do about a backend that did not answer.
func backendFix(err error, p *app.Preflight, cfg config.Config) string {
	if e, ok := errors.AsType[*graphql.Error](err); ok && e.Kind == graphql.KindHTTP &&
		(e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden) {
		if hint := p.UnauthorizedHint(); hint != "" {
			return hint
		}
		return "the backend refused the credentials; check them against the API's auth modes"
	}
	return fmt.Sprintf("check that %s is the API's GraphQL URL and that this machine reaches it (DNS, proxy, firewall)", cfg.Name("endpoint"))
}
