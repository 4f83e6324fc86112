package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// serverEntry is the part of server.json the tests hold to the build.
type serverEntry struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Packages []struct {
		RegistryType string `json:"registryType"`
		Identifier   string `json:"identifier"`
		Version      string `json:"version"`
	} `json:"packages"`
}

// serverJSON reads root/server.json.
func serverJSON(t *testing.T, root string) serverEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s serverEntry
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("server.json: %v", err)
	}
	if s.Version == "" {
		t.Fatal("server.json has no version")
	}
	return s
}

// schemaFile is the vendored registry schema (mcpregistry/README.md says
// where it comes from) and schemaSHA256 its hash there.
const (
	schemaFile   = "mcpregistry/server.schema.2025-12-11.json"
	schemaSHA256 = "2e1e2dc758185bfc91023df4e5ace0e1c1bdb7b7b3d6614bb9ac6b9e9a9c2f68"
)

// compileRegistrySchema compiles the vendored schema with format assertions
// on (uri fields must be URIs), after checking it is the file named in its
// README.
func compileRegistrySchema(t *testing.T) (*jsonschema.Schema, string) {
	t.Helper()
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(raw)); sum != schemaSHA256 {
		t.Fatalf("%s has SHA-256 %s, not the vendored %s: replace it only with the published file", schemaFile, sum, schemaSHA256)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s, id
}

// TestServerJSONValidates holds ../server.json to the registry's schema
// (2025-12-11): it names that schema, validates against it, and its OCI
// image tag and Go module version are its own version. The same validator
// refuses a copy with a version range and one with an over-long
// description, so a pass means something.
func TestServerJSONValidates(t *testing.T) {
	schema, id := compileRegistrySchema(t)
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("server.json: %v", err)
	}
	if got := doc.(map[string]any)["$schema"]; got != id {
		t.Errorf("server.json's $schema is %v, want the vendored %s", got, id)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("server.json does not validate against %s:\n%v", id, err)
	}

	s := serverJSON(t, moduleRoot(t))
	registries := map[string]bool{}
	for _, p := range s.Packages {
		registries[p.RegistryType] = true
		switch p.RegistryType {
		case "oci":
			if !strings.HasSuffix(p.Identifier, ":"+s.Version) {
				t.Errorf("the OCI package %s is not tagged with the entry's version %s", p.Identifier, s.Version)
			}
		case "go":
			if p.Version != s.Version || p.Identifier != "github.com/companyintel/mcp-server/cmd/server" {
				t.Errorf("the Go package is %s@%s, want github.com/companyintel/mcp-server/cmd/server@%s", p.Identifier, p.Version, s.Version)
			}
		}
	}
	if !registries["oci"] || !registries["go"] {
		t.Errorf("server.json's packages are %v; want the OCI image and the Go module", registries)
	}

	for name, mutate := range map[string]func(m map[string]any){
		"a version range": func(m map[string]any) {
			m["packages"].([]any)[1].(map[string]any)["version"] = "latest"
		},
		"a description over 100 characters": func(m map[string]any) {
			m["description"] = strings.Repeat("x", 101)
		},
	} {
		bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		mutate(bad.(map[string]any))
		if err := schema.Validate(bad); err == nil {
			t.Errorf("the schema accepted server.json with %s", name)
		}
	}
}

// TestServerJSONMarksSecrets: every variable whose value is a credential is
// marked isSecret, so clients mask it and keep it out of their configs'
// plain text; every variable has a description.
func TestServerJSONMarksSecrets(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Packages []struct {
			Identifier           string `json:"identifier"`
			EnvironmentVariables []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				IsSecret    bool   `json:"isSecret"`
			} `json:"environmentVariables"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		t.Fatal(err)
	}
	credential := regexp.MustCompile(`SECRET|TOKEN|API_KEY|PASSWORD|REDIS_URL`)
	for _, p := range entry.Packages {
		if len(p.EnvironmentVariables) == 0 {
			t.Errorf("%s lists no environment variables", p.Identifier)
		}
		for _, v := range p.EnvironmentVariables {
			if v.Description == "" {
				t.Errorf("%s: %s has no description", p.Identifier, v.Name)
			}
			if credential.MatchString(v.Name) != v.IsSecret {
				t.Errorf("%s: %s isSecret=%v; credentials, and only they, are secret", p.Identifier, v.Name, v.IsSecret)
			}
		}
	}
}
