package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// CatalogueJSON is the catalogue as code: every tool's name, title,
// description, input and output schemas and annotations, as the tool
// constructors define them — without what one deployment adds (a disabled
// note, its rate limits) — in canonical JSON: sorted keys, no HTML escaping,
// one trailing newline. Its hash names the contract a client was built
// against (DESIGN.md, "Agent contract"). This is the default catalogue,
// which --version, check and qualify name; a server started with
// --feedback-tool serves another: withFeedback adds report_missing_capability
// last.
func CatalogueJSON(withFeedback bool) ([]byte, error) {
	all := func(string) bool { return true }
	catalogue := append(read.Tools(nil, nil), write.Tools(write.Deps{Allowed: all})...)
	if withFeedback {
		catalogue = append(catalogue, feedback.New(feedback.Deps{}))
	}
	catalogue = inCatalogueOrder(catalogue)
	var defs []any
	for _, t := range catalogue {
		// A round trip through generic JSON sorts every object's keys.
		b, err := json.Marshal(t.Definition())
		if err != nil {
			return nil, fmt.Errorf("catalogue: %s: %w", t.Name(), err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("catalogue: %s: %w", t.Name(), err)
		}
		defs = append(defs, v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"tools": defs}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CatalogueHash is the SHA-256 of CatalogueJSON, in hex.
func CatalogueHash() (string, error) {
	return catalogueHash(false)
}

// catalogueHash is the SHA-256 of catalogueJSON(withFeedback), in hex.
func catalogueHash(withFeedback bool) (string, error) {
	b, err := CatalogueJSON(withFeedback)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// catalogueID is the prefix of the hash that the start-up line and the
// status resource show: of the catalogue this server serves, so the
// feedback tool's catalogue when --feedback-tool is on. The catalogue is
// code, so its hash is recorded with it (catalogue_hash.go, rewritten with
// the snapshots) rather than computed at every start: computing it builds
// every tool and canonicalises its JSON, about 3 ms of CPU and 170 KB
// beside the first tools/list answer. TestCatalogueHashIsRecorded holds
// the record to the code.
func catalogueID(withFeedback bool) string {
	if withFeedback {
		return recordedFeedbackCatalogueHash[:12]
	}
	return recordedCatalogueHash[:12]
}
