package qualify

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Ceiling bounds one tool's calls in a run: the slowest answer and the
// largest, as JSON on the wire.
type Ceiling struct {
	LatencyMS int `json:"latency_ms"`
	Bytes     int `json:"bytes"`
}

// Profile holds a Ceiling per tool. A tool called but missing from the
// profile fails the run: every tool has a ceiling.
type Profile map[string]Ceiling

// profileJSON is the checked-in profile. Its latency ceilings are set for a
// loaded 2-core CI machine, far above an idle one's figures; its sizes
// are the answers' budgets for the suite's requests (limits of 5 to 100); the
// list tools' answers are bounded at 16 KiB (tools.DefaultAnswerBound, both
// renderings), plus the result's envelope.
//
//go:embed profile.json
var profileJSON []byte

// DefaultProfile is the checked-in profile.
func DefaultProfile() Profile {
	p, err := ParseProfile(profileJSON)
	if err != nil {
		panic(err) // checked by a test; a broken file cannot ship
	}
	return p
}

// ParseProfile reads a profile.
func ParseProfile(b []byte) (Profile, error) {
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return p, nil
}
