// Command appsync-local serves the embedded AppSync-compatible backend
// (package appsynclocal) on a local address, for demos, CI and end-to-end
// tests that cannot reach AWS.
//
//	appsync-local [--listen 127.0.0.1:8787] [--api-key KEY] [--data-dir DIR]
//	              [--companies N] [--seed S] [--job-delay 2s]
//	              [--fault SPEC]... [--verbose]
//	              [--oidc-user NAME]... [--iam KEYID:SECRET[:USER]]... [--region R]
//
// The first log line gives the endpoint and the API key; a copyable curl
// follows. The API key and the OIDC issuer's address are kept in the data
// directory and stay the same across restarts; each start writes them, with
// the endpoint, to <data-dir>/appsync-local.env for scripts. The first start
// with a given size and seed builds the database (about 1 s for 20,000
// companies, under 45 s for 1,000,000 on two idle cores, with a progress line
// every 3 s); later starts reuse it. SIGINT or SIGTERM stops a build within
// moments and removes its partial file.
//
//	appsync-local sample [--seed S] [--companies N] [--count 50]
//
// prints profiles picked at random from a data set, for a person to read
// (appsynclocal/dataset/testdata/sample.txt is the default data set's).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/companyintel/mcp-server/appsynclocal"
)

// errUsage means the flags were wrong; the flag package has said why.
var errUsage = errors.New("usage")

func main() {
	// SIGINT or SIGTERM stops the server, or a database build under way
	// (which then removes its partial file); a second one kills at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	run := run
	if len(os.Args) > 1 && os.Args[1] == "sample" {
		run = func(_ context.Context, args []string, stderr io.Writer) error {
			return sample(args[1:], os.Stdout, stderr)
		}
	}
	switch err := run(ctx, os.Args[1:], os.Stderr); {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "appsync-local:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done, logging to stderr.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("appsync-local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8787", "address to serve on")
	apiKey := fs.String("api-key", "", "API key callers must send in x-api-key (default: the one kept in the data dir, generated on the first start)")
	dataDir := fs.String("data-dir", defaultDataDir(), "directory for the databases")
	companies := fs.Int("companies", appsynclocal.DefaultCompanies, fmt.Sprintf("number of synthetic companies, 1 to %d", appsynclocal.MaxCompanies))
	seed := fs.Int64("seed", appsynclocal.DefaultSeed, "data-set seed")
	jobDelay := fs.Duration("job-delay", appsynclocal.DefaultJobDelay, "how long email-discovery jobs stay PENDING (0: complete at once)")
	verbose := fs.Bool("verbose", false, "log every request")
	region := fs.String("region", "us-east-1", "region SigV4 requests must be signed for")
	var oidcUsers []string
	fs.Func("oidc-user", "start a local OIDC issuer and keep a token for this user in <data-dir>/tokens/<user>.jwt (repeatable)", func(u string) error {
		if u == "" || strings.ContainsAny(u, "/\\ ") {
			return errors.New("want a plain user name")
		}
		oidcUsers = append(oidcUsers, u)
		return nil
	})
	var iam iamFlag
	fs.Var(&iam, "iam", "accept SigV4 requests signed with ACCESS_KEY_ID:SECRET_ACCESS_KEY[:USER] (repeatable)")
	var faults []appsynclocal.Fault
	fs.Func("fault", "inject a fault (repeatable): latency=250ms | http=502 | throttle=2s | malformed | partial[=Type.field], "+
		"then optionally ,op=<OperationName> and ,next=<N>", func(spec string) error {
		f, err := appsynclocal.ParseFault(spec)
		faults = append(faults, f)
		return err
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if *companies < 1 || *companies > appsynclocal.MaxCompanies {
		fmt.Fprintf(fs.Output(), "appsync-local: --companies: %d is out of range; give 1 to %d, e.g. --companies 20000\n", *companies, appsynclocal.MaxCompanies)
		return errUsage
	}
	if err := os.MkdirAll(*dataDir, 0o700); err != nil {
		return err
	}
	key, err := stableAPIKey(*dataDir, *apiKey)
	if err != nil {
		return err
	}
	*apiKey = key

	// Listen first, so the first line can give the real address before a
	// database build that may take a while.
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/graphql"
	log.Info("appsync-local: POST GraphQL to "+url+" with header x-api-key", "url", url, "api_key", *apiKey)
	fmt.Fprintf(stderr, "  try: curl -H 'x-api-key: %s' -d '{\"query\":\"{ searchCompanies(keyword:\\\"robotics\\\"){ total items { name } } }\"}' %s\n", *apiKey, url)

	env := map[string]string{"APPSYNC_ENDPOINT": url, "APPSYNC_API_KEY": *apiKey}
	auths, stopAuth, err := authModes(ctx, log, *dataDir, *region, oidcUsers, iam, env)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopAuth()
	envPath, err := writeEnv(*dataDir, env)
	if err != nil {
		ln.Close()
		return err
	}
	log.Info("settings for clients, kept across restarts of this data dir", "env_file", envPath)

	b, err := appsynclocal.NewContext(ctx, appsynclocal.Config{
		DataDir:        *dataDir,
		Companies:      *companies,
		Seed:           *seed,
		APIKey:         *apiKey,
		Authenticators: auths,
		JobDelay:       *jobDelay,
		Logger:         log,
	})
	if err != nil {
		ln.Close()
		if ctx.Err() != nil {
			log.Info("stopped before the data set was ready")
			return nil
		}
		return err
	}
	for _, f := range faults {
		if err := b.Faults().Add(f); err != nil {
			b.Close()
			ln.Close()
			return err
		}
		log.Info("fault switched on", "fault", f.String())
	}
	srv := appsynclocal.ServeBackend(b, ln)
	log.Info("ready", "companies", *companies, "seed", *seed, "data_dir", *dataDir, "faults", "POST /__faults from loopback")

	<-ctx.Done()
	log.Info("shutting down")
	return srv.Close()
}

// defaultDataDir is the per-user cache directory, so a database built once
// is reused by every later start.
func defaultDataDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "appsync-local")
	}
	return filepath.Join(os.TempDir(), "appsync-local")
}
