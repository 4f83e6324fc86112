package qualify

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRemoveStateKeepsTheCompaniesDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"companies-20000-1.db", "state-20000-1.db", "state-20000-1.db-wal", "state-20000-1.db-shm", "issuer-key.pem"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeState(dir); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, f := range left {
		names = append(names, filepath.Base(f))
	}
	if len(names) != 2 || names[0] != "companies-20000-1.db" || names[1] != "issuer-key.pem" {
		t.Errorf("left %v, want the companies database and the issuer key only", names)
	}
}
