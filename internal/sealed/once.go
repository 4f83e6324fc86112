package sealed

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Once remembers the ids of tokens already used, until they expire, so
// that each is honoured once. A sealed token is stateless and could be
// sent again; the id it carries is not.
type Once interface {
	// First reports whether id is seen for the first time, and remembers
	// it until until. An error means the store could not say: the token
	// is then refused, never honoured twice.
	First(ctx context.Context, id string, until time.Time) (bool, error)
}

// Memory is a Once for one process. Replicas that do not share a Redis
// each remember their own: a token replayed to another replica within its
// expiry is honoured there again. Use Redis for a replica set.
type Memory struct {
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
	// Max bounds the ids remembered; past it, First refuses (fails closed)
	// until some expire. 0 means 100,000.
	Max int

	mu   sync.Mutex
	seen map[string]time.Time
}

// First implements Once.
func (m *Memory) First(_ context.Context, id string, until time.Time) (bool, error) {
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	max := m.Max
	if max <= 0 {
		max = 100_000
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = map[string]time.Time{}
	}
	t := now()
	if exp, ok := m.seen[id]; ok && t.Before(exp) {
		return false, nil
	}
	if len(m.seen) >= max {
		for k, exp := range m.seen {
			if !t.Before(exp) {
				delete(m.seen, k)
			}
		}
		if len(m.seen) >= max {
			return false, errFull
		}
	}
	m.seen[id] = until
	return true, nil
}

var errFull = errorString("too many confirmations are pending in this process; try again in a few minutes")

type errorString string

func (e errorString) Error() string { return string(e) }

// Redis is a Once shared by every replica pointed at one Redis: SET NX with
// the token's remaining lifetime, so an id is remembered exactly as long as
// its token could be sent.
type Redis struct {
	Client *redis.Client
	// Prefix starts every key; "mcp:once:" when empty.
	Prefix string
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
}

// First implements Once.
func (r *Redis) First(ctx context.Context, id string, until time.Time) (bool, error) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	ttl := until.Sub(now())
	if ttl < time.Second {
		ttl = time.Second
	}
	prefix := r.Prefix
	if prefix == "" {
		prefix = "mcp:once:"
	}
	return r.Client.SetNX(ctx, prefix+id, 1, ttl).Result()
}
