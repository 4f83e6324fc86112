package appsynclocal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/companyintel/mcp-server/appsynclocal/graph"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// MaxCompanies bounds Config.Companies: the largest data set the backend
// builds, as docs/operator.md states for --companies.
const MaxCompanies = 1_000_000

// Defaults for a zero Config.
const (
	DefaultCompanies = 20_000
	DefaultSeed      = 1
	// DefaultJobDelay is how long cmd/appsync-local keeps an email-discovery
	// job PENDING, like a real lookup would take. Config.JobDelay has no
	// default: 0 completes jobs at once, which tests usually want.
	DefaultJobDelay = 2 * time.Second
)

// Config configures a Backend.
type Config struct {
	// DataDir holds the databases; "" means a temporary directory that the
	// backend owns and removes on Close.
	DataDir string
	// Companies is the data-set size, 1 to MaxCompanies; 0 means
	// DefaultCompanies.
	Companies int
	// Seed selects the data set; 0 means DefaultSeed.
	Seed int64
	// APIKey is the key x-api-key must carry; "" means a generated one
	// (see Backend.APIKey).
	APIKey string
	// Authenticators are extra auth modes (OIDC, IAM), tried after the API
	// key, in order.
	Authenticators []Authenticator
	// JobDelay is how long an email-discovery job stays PENDING; 0 completes
	// it at once. See DefaultJobDelay.
	JobDelay time.Duration
	// Now is the clock for jobs and timestamps; nil means time.Now.
	Now func() time.Time
	// Logger receives the backend's log; nil discards it.
	Logger *slog.Logger
}

// Backend is the embedded AppSync backend: a database and the GraphQL
// executor over it, served by Handler.
type Backend struct {
	store   *store.Store
	exec    *executor.Executor
	auths   []Authenticator
	apiKey  string
	faults  *Faults
	log     *slog.Logger
	tempDir string // removed on Close when the backend made it

	closeOnce sync.Once
	closeErr  error
}

// New opens the data set cfg describes, building its database first when
// there is none to reuse, and returns a backend ready to serve.
func New(cfg Config) (*Backend, error) {
	return NewContext(context.Background(), cfg)
}

// NewContext is New, stopping a database build soon after ctx is cancelled
// (a million companies take about 30 s to build); the partial file is removed.
func NewContext(ctx context.Context, cfg Config) (*Backend, error) {
	if cfg.Companies == 0 {
		cfg.Companies = DefaultCompanies
	}
	if cfg.Companies < 1 || cfg.Companies > MaxCompanies {
		return nil, fmt.Errorf("data-set size %d is out of range: 1 to %d", cfg.Companies, MaxCompanies)
	}
	if cfg.Seed == 0 {
		cfg.Seed = DefaultSeed
	}
	if cfg.APIKey == "" {
		cfg.APIKey = GenerateAPIKey()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Backend{
		apiKey: cfg.APIKey,
		faults: &Faults{},
		log:    cfg.Logger,
		auths:  append([]Authenticator{NewAPIKeyAuthenticator(cfg.APIKey)}, cfg.Authenticators...),
	}
	if cfg.DataDir == "" {
		dir, err := os.MkdirTemp("", "appsync-local-")
		if err != nil {
			return nil, fmt.Errorf("creating a data dir: %w", err)
		}
		cfg.DataDir, b.tempDir = dir, dir
	}
	s, err := store.Open(ctx, store.Options{
		Dir:       cfg.DataDir,
		Companies: cfg.Companies,
		Seed:      cfg.Seed,
		JobDelay:  cfg.JobDelay,
		Now:       cfg.Now,
		Logger:    cfg.Logger,
	})
	if err != nil {
		b.removeTempDir()
		return nil, err
	}
	b.store = s
	b.exec = b.newExecutor()
	return b, nil
}

// newExecutor builds the gqlgen executor the HTTP layer drives directly,
// instead of gqlgen's stock handler, so that every answer is in AppSync's
// shape.
func (b *Backend) newExecutor() *executor.Executor {
	es := graph.NewExecutableSchema(graph.Config{Resolvers: graph.NewResolver(b.store, b.log)})
	exec := executor.New(es)
	exec.Use(allowIntrospection{}) // AppSync allows introspection by default
	exec.AroundFields(newFieldAuth(es.Schema()).middleware)
	exec.AroundFields(partialMiddleware)
	exec.SetErrorPresenter(presentError)
	exec.SetRecoverFunc(func(ctx context.Context, p any) error {
		b.log.ErrorContext(ctx, "resolver panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		return &graph.Error{Type: graph.TypeInternal, Message: "internal error; the backend log has the details"}
	})
	return exec
}

// presentError keeps a resolver error's errorType for the HTTP layer, which
// moves it to the top level of the error.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var ge *graph.Error
	if errors.As(err, &ge) {
		gerr.Message = ge.Message
		gerr.Extensions = map[string]any{errorTypeKey: ge.Type}
	}
	return gerr
}

// Handler serves POST /graphql and, from loopback only, /__faults.
func (b *Backend) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", b.serveGraphQL)
	mux.HandleFunc("/__faults", b.serveFaults)
	return mux
}

// Faults returns the switchboard of injected faults.
func (b *Backend) Faults() *Faults { return b.faults }

// APIKey returns the key x-api-key must carry.
func (b *Backend) APIKey() string { return b.apiKey }

// Close closes the databases, and removes the data directory if the backend
// created it. Closing again returns the first result.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		b.closeErr = b.store.Close()
		b.removeTempDir()
	})
	return b.closeErr
}

func (b *Backend) removeTempDir() {
	if b.tempDir != "" {
		os.RemoveAll(b.tempDir)
	}
}

// allowIntrospection turns on introspection, which the executor disables by
// default. (gqlgen's own extension package would pull in modules this one
// does not otherwise need.)
type allowIntrospection struct{}

// ExtensionName names the extension in gqlgen's errors.
func (allowIntrospection) ExtensionName() string { return "AllowIntrospection" }

// Validate accepts every schema.
func (allowIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext enables introspection for the operation.
func (allowIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	oc.DisableIntrospection = false
	return nil
}
