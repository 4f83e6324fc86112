package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Record is one task as every replica reads it: who made it, for which
// tool and job, where it stands, and when it expires. A record is kept a
// while past its expiry (keepAfterExpiry) so that its owner is told it
// expired, and the expiry is recorded once, rather than it seeming unknown.
type Record struct {
	ID     string `json:"id"`
	Owner  string `json:"owner"`
	Tool   string `json:"tool"`
	JobID  string `json:"job_id"`
	Status Status `json:"status"`
	// Message is the task's status sentence.
	Message string `json:"message,omitempty"`
	// Job is what the tool keeps of its job (tools.Follow.Job).
	Job     json.RawMessage `json:"job"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	Expires time.Time       `json:"expires"`
	// TTL and Poll are in milliseconds, as the wire states them.
	TTL  int64 `json:"ttl_ms"`
	Poll int64 `json:"poll_ms"`
	// Result is the tool's answer once completed; Error the JSON-RPC error
	// once failed.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// Inputs are the requests the job waits on (input_required);
	// Responses the client's answers so far, by key.
	Inputs    map[string]json.RawMessage `json:"inputs,omitempty"`
	Responses map[string]json.RawMessage `json:"responses,omitempty"`
	// ExpiryRecorded is set once the expiry has been recorded.
	ExpiryRecorded bool `json:"expiry_recorded,omitempty"`
}

// Status is a task's status, as SEP-2663 spells it.
type Status string

// The statuses a task takes.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether s is final.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// keepAfterExpiry is how long a record outlives its TTL.
const keepAfterExpiry = 10 * time.Minute

// Store keeps the task records.
type Store interface {
	// Create stores a new record; it returns once any replica can read it.
	Create(ctx context.Context, r Record) error
	// Get returns the record of id; ok false when there is none.
	Get(ctx context.Context, id string) (r Record, ok bool, err error)
	// Update replaces the record when its stored status is still from;
	// ok false when it was not (another replica settled or cancelled it).
	Update(ctx context.Context, r Record, from Status) (ok bool, err error)
	// Kind names the store for the start-up line: "redis" or "memory".
	Kind() string
}

// Memory keeps records in this process: one replica's tasks, lost at exit.
type Memory struct {
	mu      sync.Mutex
	records map[string]Record
	now     func() time.Time
	creates int
}

// NewMemory returns an empty Memory store; now is its clock (nil: time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{records: map[string]Record{}, now: now}
}

func (m *Memory) Kind() string { return "memory" }

func (m *Memory) Create(_ context.Context, r Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.records[r.ID]; ok {
		return errors.New("task id already in use")
	}
	m.records[r.ID] = r
	if m.creates++; m.creates%64 == 0 {
		now := m.now()
		for id, rec := range m.records {
			if now.After(rec.Expires.Add(keepAfterExpiry)) {
				delete(m.records, id)
			}
		}
	}
	return nil
}

func (m *Memory) Get(_ context.Context, id string) (Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.records[id]
	if ok && m.now().After(r.Expires.Add(keepAfterExpiry)) {
		delete(m.records, id)
		return Record{}, false, nil
	}
	return r, ok, nil
}

func (m *Memory) Update(_ context.Context, r Record, from Status) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.records[r.ID]
	if !ok || cur.Status != from {
		return false, nil
	}
	m.records[r.ID] = r
	return true, nil
}

// Redis keeps records in Redis, where every replica pointed at it reads
// them: a hash per task (the record's JSON and its status, for the
// compare-and-set), expiring keepAfterExpiry after the task does.
type Redis struct {
	client *redis.Client
	now    func() time.Time
}

// NewRedis returns a store over opts; now is its clock (nil: time.Now).
func NewRedis(opts *redis.Options, now func() time.Time) *Redis {
	if now == nil {
		now = time.Now
	}
	return &Redis{client: redis.NewClient(opts), now: now}
}

// Close releases the connections.
func (s *Redis) Close() error { return s.client.Close() }

func (s *Redis) Kind() string { return "redis" }

// key is the task's key; ids are the server's own random hex.
func key(id string) string { return "mcp:task:" + id }

var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rec', ARGV[1], 'status', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`)

var updateScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'status', ARGV[3])
return 1`)

func (s *Redis) keep(r Record) int64 {
	ms := r.Expires.Add(keepAfterExpiry).Sub(s.now()).Milliseconds()
	return max(ms, 1)
}

func (s *Redis) Create(ctx context.Context, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	n, err := createScript.Run(ctx, s.client, []string{key(r.ID)}, b, string(r.Status), s.keep(r)).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("task id already in use")
	}
	return nil
}

func (s *Redis) Get(ctx context.Context, id string) (Record, bool, error) {
	b, err := s.client.HGet(ctx, key(id), "rec").Bytes()
	if errors.Is(err, redis.Nil) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, false, err
	}
	return r, true, nil
}

func (s *Redis) Update(ctx context.Context, r Record, from Status) (bool, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	n, err := updateScript.Run(ctx, s.client, []string{key(r.ID)}, string(from), b, string(r.Status)).Int()
	return n == 1, err
}
