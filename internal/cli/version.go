package cli

import (
	"fmt"
	"io"
	"runtime"
	"strconv"

	"github.com/companyintel/mcp-server/app"
)

// printVersion is --version: the module version, the VCS revision and
// whether the tree was modified, the catalogue's SHA-256 (the contract the
// binary serves) and the toolchain, one "key value" per line. It returns
// the exit code.
func printVersion(stdout, stderr io.Writer) int {
	b := app.ReadBuild()
	hash, err := app.CatalogueHash()
	if err != nil {
		fmt.Fprintln(stderr, "mcp-server --version:", err)
		return exitFailed
	}
	rev, modified := b.Revision, strconv.FormatBool(b.Modified)
	if rev == "" {
		rev, modified = "unknown (no VCS data: a module download, go run, -buildvcs=false or a git worktree)", "unknown"
	}
	fmt.Fprintf(stdout, "mcp-server %s\nrevision %s\nmodified %s\ncatalog %s\ngo %s %s/%s\n",
		b.Version, rev, modified, hash, b.Go, runtime.GOOS, runtime.GOARCH)
	return 0
}
