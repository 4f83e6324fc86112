package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// Bounds on the set-up steps.
const (
	buildTimeout      = 10 * time.Minute // go build of one command
	smallReadyTimeout = 5 * time.Minute  // the 20,000-company backend, build included
	bigReadyTimeout   = 60 * time.Minute // the 1,000,000-company backend, build included
)

// defaultCompanies is appsync-local's and --embedded's default data set.
const defaultCompanies = 20000

// environment is what the measurements run against: the built binaries,
// node, the peer, and the running backends.
type environment struct {
	tmp       string
	serverBin string // the default build: --embedded needs it
	// releaseBin is the build README says to ship (-trimpath -tags
	// noembedded), measured against a running backend; serverBin when
	// -server-bin was given.
	releaseBin string
	floorBin   string
	// floorAWSBin is the floor built with -tags awschain: it also resolves
	// the AWS credential chain at start. mcp-server's memory is compared
	// with it.
	floorAWSBin string
	node        string
	npx         string // "" when npx is not installed: its start row is skipped
	peerDir     string
	peerMain    string
	apiKey      string
	baseEnv     []string // the environment of every child: nothing else leaks in
	small       *backend // defaultCompanies
	big         *backend // cfg.bigCompanies; nil when skipped
	builds      []buildRecord
}

// buildRecord is how long a backend database took to build, kept beside the
// database so that a run which reuses it can still report it.
type buildRecord struct {
	Companies int           `json:"companies"`
	Took      time.Duration `json:"took_ns"`
	When      time.Time     `json:"when"`
	CPUs      int           `json:"cpus"`
	// Fresh is true when this run built it.
	Fresh bool `json:"-"`
}

// newEnvironment builds the binaries and starts the backends. On error,
// whatever was started is stopped.
func newEnvironment(ctx context.Context, cfg config, tmp string) (*environment, error) {
	env := &environment{tmp: tmp, apiKey: randomKey()}
	if err := env.setUp(ctx, cfg); err != nil {
		env.stop() // the backends started before the failing step
		return nil, err
	}
	return env, nil
}

// setUp finds the peer, builds the binaries and starts the backends,
// recording each in env as it goes, so that stop can undo a partial set-up.
func (env *environment) setUp(ctx context.Context, cfg config) (err error) {
	// The peers are checked first: a missing one should cost seconds, not
	// the minutes of building and starting backends.
	if env.node, err = exec.LookPath("node"); err != nil {
		return errors.New("node is not on PATH: the mcp-graphql peer needs Node 20 (and npm to install it: npm ci --prefix " + cfg.peerDir + ")")
	}
	env.npx, _ = exec.LookPath("npx") // optional: only its start row needs it
	if env.peerDir, err = filepath.Abs(cfg.peerDir); err != nil {
		return err
	}
	env.peerMain = filepath.Join(env.peerDir, "node_modules", "mcp-graphql", "dist", "index.js")
	if _, err := os.Stat(env.peerMain); err != nil {
		return fmt.Errorf("the mcp-graphql peer is not installed (no %s): run npm ci --prefix %s", env.peerMain, cfg.peerDir)
	}

	home := filepath.Join(env.tmp, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	// An empty HOME keeps the developer's AWS profiles and caches away from
	// the server, so its credential chain resolves the same on every machine.
	env.baseEnv = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + env.tmp}

	if cfg.serverBin != "" {
		if env.serverBin, err = filepath.Abs(cfg.serverBin); err != nil {
			return err
		}
	} else {
		logf("building ./cmd/server")
		env.serverBin = filepath.Join(env.tmp, "mcp-server")
		if err := goBuild(ctx, env.serverBin, "./cmd/server"); err != nil {
			return err
		}
		logf("building ./cmd/server for release (-trimpath -tags noembedded)")
		env.releaseBin = filepath.Join(env.tmp, "mcp-server-release")
		if err := goBuild(ctx, env.releaseBin, "./cmd/server", "-trimpath", "-tags", "noembedded"); err != nil {
			return err
		}
	}
	if env.releaseBin == "" {
		env.releaseBin = env.serverBin
	}
	logf("building ./bench/cmd/floor")
	env.floorBin = filepath.Join(env.tmp, "floor")
	if err := goBuild(ctx, env.floorBin, "./bench/cmd/floor"); err != nil {
		return err
	}
	logf("building ./bench/cmd/floor -tags awschain")
	env.floorAWSBin = filepath.Join(env.tmp, "floor-awschain")
	if err := goBuild(ctx, env.floorAWSBin, "./bench/cmd/floor", "-tags", "awschain"); err != nil {
		return err
	}
	logf("building ./cmd/appsync-local")
	backendBin := filepath.Join(env.tmp, "appsync-local")
	if err := goBuild(ctx, backendBin, "./cmd/appsync-local"); err != nil {
		return err
	}

	logf("starting appsync-local with %d companies (data in %s)", defaultCompanies, cfg.dataDir)
	if env.small, err = env.startBackend(ctx, backendBin, cfg.dataDir, defaultCompanies, smallReadyTimeout); err != nil {
		return err
	}
	if cfg.bigCompanies > 0 {
		logf("starting appsync-local with %d companies (the first run builds the database: minutes)", cfg.bigCompanies)
		if env.big, err = env.startBackend(ctx, backendBin, cfg.dataDir, cfg.bigCompanies, bigReadyTimeout); err != nil {
			return err
		}
	}
	return nil
}

// startBackend starts a backend on its own subdirectory of the data
// directory and records or recalls its database's build time.
func (env *environment) startBackend(ctx context.Context, bin, dataDir string, companies int, timeout time.Duration) (*backend, error) {
	dir := filepath.Join(dataDir, strconv.Itoa(companies))
	b, err := startBackend(ctx, bin, dir, companies, env.apiKey, env.baseEnv, timeout)
	if err != nil {
		return nil, err
	}
	recordFile := filepath.Join(dir, "mcpbench-build.json")
	var rec buildRecord
	if b.built > 0 {
		rec = buildRecord{Companies: companies, Took: b.built, When: time.Now().UTC(), CPUs: runtime.NumCPU(), Fresh: true}
		if raw, err := json.Marshal(rec); err == nil {
			os.WriteFile(recordFile, raw, 0o644)
		}
	} else if raw, err := os.ReadFile(recordFile); err == nil && json.Unmarshal(raw, &rec) == nil {
		// Built by an earlier run; rec says when and how long.
	} else {
		rec = buildRecord{Companies: companies} // built outside the driver: time unknown
	}
	env.builds = append(env.builds, rec)
	return b, nil
}

// goBuild compiles a command of this module, with flags before the package.
func goBuild(ctx context.Context, out, pkg string, flags ...string) error {
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	args := append(append([]string{"build", "-o", out}, flags...), pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	return nil
}

// stop stops the backends.
func (env *environment) stop() {
	env.small.stop()
	env.big.stop()
}

// ourServer is our MCP server, the release build, against the running
// 20,000-company backend, with the API key from the environment, as an
// operator would configure it.
func (env *environment) ourServer() server {
	return server{
		name: "mcp-server",
		bin:  env.releaseBin,
		args: []string{"--endpoint", env.small.url},
		env:  append(env.baseEnv[:len(env.baseEnv):len(env.baseEnv)], "APPSYNC_API_KEY="+env.apiKey),
	}
}

// embedded is our MCP server with --embedded on dataDir.
func (env *environment) embedded(dataDir string) server {
	return server{
		name: "mcp-server --embedded",
		bin:  env.serverBin,
		args: []string{"--embedded", "--data-dir", dataDir},
		env:  env.baseEnv,
	}
}

// peerEnv configures mcp-graphql as its README says: ENDPOINT, and the API
// key header in HEADERS.
func (env *environment) peerEnv() []string {
	headers, _ := json.Marshal(map[string]string{"x-api-key": env.apiKey})
	return append(env.baseEnv[:len(env.baseEnv):len(env.baseEnv)], "ENDPOINT="+env.small.url, "HEADERS="+string(headers))
}

// peerNode is mcp-graphql run by node directly, so that the process
// measured is the server itself.
func (env *environment) peerNode() server {
	return server{name: "mcp-graphql", bin: env.node, args: []string{env.peerMain}, env: env.peerEnv()}
}

// peerNpx is mcp-graphql started the way its README configures clients
// ("command": "npx", "args": ["mcp-graphql"]), from the installed copy
// (--offline: npx must not reach the registry).
func (env *environment) peerNpx() server {
	return server{name: "mcp-graphql via npx", dir: env.peerDir, bin: env.npx, args: []string{"--offline", "mcp-graphql"}, env: env.peerEnv()}
}

// floor is bench/cmd/floor against the running 20,000-company backend,
// posting exactly the request the direct path posts.
func (env *environment) floor() server {
	return env.floorBuild(nameFloor, env.floorBin)
}

// floorAWS is the floor that also resolves the AWS credential chain.
func (env *environment) floorAWS() server {
	return env.floorBuild(nameFloorAWS, env.floorAWSBin)
}

func (env *environment) floorBuild(name, bin string) server {
	return server{
		name: name,
		bin:  bin,
		env: append(env.baseEnv[:len(env.baseEnv):len(env.baseEnv)],
			"FLOOR_ENDPOINT="+env.small.url, "FLOOR_API_KEY="+env.apiKey, "FLOOR_BODY="+string(searchBody(searchVars))),
	}
}
