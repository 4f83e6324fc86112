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
// last. It is the catalogue of a backend with the schema extensions (the
// embedded backend's); a backend on the original schema is served the one
// without the tools that need them (OriginalSchemaCatalogueJSON).
func CatalogueJSON(withFeedback bool) ([]byte, error) {
	return catalogueJSON(withFeedback, true)
}

// OriginalSchemaCatalogueJSON is CatalogueJSON without the tools that need
// an extension of the API's original schema: the catalogue served against
// a backend that lacks them.
func OriginalSchemaCatalogueJSON(withFeedback bool) ([]byte, error) {
	return catalogueJSON(withFeedback, false)
}

// catalogueJSON is the catalogue with or without the feedback tool and the
// tools that need a schema extension.
func catalogueJSON(withFeedback, withExtensions bool) ([]byte, error) {
	all := func(string) bool { return true }
	catalogue := append(read.Tools(nil, nil), write.Tools(write.Deps{Allowed: all})...)
	if withFeedback {
		catalogue = append(catalogue, feedback.New(feedback.Deps{}))
	}
	catalogue = inCatalogueOrder(catalogue)
	var defs []any
	for _, t := range catalogue {
		if !withExtensions && t.Facts().Needs != "" {
			continue
		}
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
	return catalogueHash(false, true)
}

// CatalogueHashOf is the hash of one of the catalogues: with the feedback
// tool or not, with the tools that need a schema extension or not.
func CatalogueHashOf(withFeedback, withExtensions bool) (string, error) {
	return catalogueHash(withFeedback, withExtensions)
}

// catalogueHash is the SHA-256 of catalogueJSON(withFeedback,
// withExtensions), in hex.
func catalogueHash(withFeedback, withExtensions bool) (string, error) {
	b, err := catalogueJSON(withFeedback, withExtensions)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// catalogueID is the prefix of the hash that the start-up line and the
// status resource show: of the catalogue this server serves, so the
// feedback tool's catalogue when --feedback-tool is on, and the original
// schema's when the backend lacks the extensions. The catalogue is
// code, so its hash is recorded with it (catalogue_hash.go, rewritten with
// the snapshots) rather than computed at every start: computing it builds
// every tool and canonicalises its JSON, about 3 ms of CPU and 170 KB
// beside the first tools/list answer. TestCatalogueHashIsRecorded holds
// the record to the code.
func catalogueID(withFeedback, withExtensions bool) string {
	return recordedCatalogueHashes[catalogueKey(withFeedback, withExtensions)][:12]
}

// catalogueKey names one of the catalogues: "default", "feedback",
// "original", "original+feedback".
func catalogueKey(withFeedback, withExtensions bool) string {
	switch {
	case withExtensions && withFeedback:
		return "feedback"
	case withExtensions:
		return "default"
	case withFeedback:
		return "original+feedback"
	}
	return "original"
}
