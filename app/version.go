package app

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
)

// Build is what the binary knows of its own build, read from the build
// information the go command records in every binary: no -ldflags -X to
// forget, and `go install …@v1.2.0` and `go build` in a checkout both report
// truly.
type Build struct {
	// Version is the module version: a release tag (go install …@v1.2.0),
	// a pseudo-version naming the commit, with +dirty when the tree was
	// modified (go build in a git checkout, Go 1.24 and later), or "dev"
	// when the go command recorded none (go run, go test, -buildvcs=false,
	// a git worktree).
	Version string
	// Revision is the VCS commit the binary was built from; "" when the
	// build recorded none (a module download has no VCS data).
	Revision string
	// Modified says the tree had changes not in Revision.
	Modified bool
	// Go is the toolchain that built the binary.
	Go string
}

// ReadBuild reads the build information once; the start-up line, the status
// resource and --version all show the same.
var ReadBuild = sync.OnceValue(func() Build {
	b := Build{Version: "dev", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified, _ = strconv.ParseBool(s.Value)
		}
	}
	switch v := bi.Main.Version; {
	case v != "" && v != "(devel)":
		b.Version = v
	case b.Revision != "":
		// VCS data without a stamped version: name the commit anyway.
		b.Version = "dev-" + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			b.Version += "+dirty"
		}
	}
	return b
})

// Version is the version the start-up line and the status resource show,
// the first line of --version.
func Version() string { return ReadBuild().Version }
