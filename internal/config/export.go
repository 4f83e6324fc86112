package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/companyintel/mcp-server/ratelimit"
)

// ExportConfig bounds export reads and says where a stdio export's file
// goes (issues 36 and 37).
type ExportConfig struct {
	// Dir is the directory a stdio server writes an export's file in for
	// the person (--export-dir, MCP_EXPORT_DIR). Empty: no file is written,
	// anywhere. Refused over HTTP, where the person opens a download URL.
	Dir string
	// PerCaller limits each caller's export reads (a resources/read of an
	// export link, or a download), each up to a hundred backend pages
	// (--export-limit, MCP_EXPORT_LIMIT; COUNT/PERIOD).
	PerCaller ratelimit.Limit
	// Concurrent caps the export reads this process serves at once
	// (--max-concurrent-exports, MCP_MAX_CONCURRENT_EXPORTS); one caller
	// holds at most half of them. A read past the cap is refused at once,
	// with a retry time, never queued.
	Concurrent int
}

// The defaults: a person exports a few files an hour; four reads at once
// hold a few MB each at most (an export streams, page by page).
const (
	defaultExportLimit      = "20/h"
	defaultConcurrentExport = 4
	maxConcurrentExport     = 64
)

// exportFlags registers the export flags.
func exportFlags(fs *flag.FlagSet, c *ExportConfig, f *flags) {
	fs.StringVar(&c.Dir, "export-dir", "", "stdio: the directory where an export's CSV file is written for the person, returned as a file:// link (default: none, no file is written)")
	fs.StringVar(&f.exportLimit, "export-limit", defaultExportLimit, "per-caller limit on export reads (each up to 100 backend pages), COUNT/PERIOD")
	fs.IntVar(&c.Concurrent, "max-concurrent-exports", defaultConcurrentExport, fmt.Sprintf("export reads this process serves at once (1 to %d); one caller holds at most half", maxConcurrentExport))
}

// readExport reads and checks the export settings.
func (c *Config) readExport(f *flags) error {
	s := c.from
	lim, err := ratelimit.ParseLimit(f.exportLimit)
	if err != nil || lim.Unlimited() {
		return fmt.Errorf("%s: %q is not COUNT/PERIOD; give it like %s", s.name("export-limit"), f.exportLimit, s.setting("export-limit", defaultExportLimit))
	}
	c.Export.PerCaller = lim
	if c.Export.Concurrent < 1 || c.Export.Concurrent > maxConcurrentExport {
		return fmt.Errorf("%s is out of range; give 1 to %d, e.g. %s", s.setting("max-concurrent-exports", strconv.Itoa(c.Export.Concurrent)),
			maxConcurrentExport, s.setting("max-concurrent-exports", strconv.Itoa(defaultConcurrentExport)))
	}
	if c.Export.Dir == "" {
		return nil
	}
	if c.HTTP.Addr != "" {
		return fmt.Errorf("%s is for stdio, where the server runs on the person's machine; over HTTP an export is a download link on the public URL: unset it", s.name("export-dir"))
	}
	dir, err := filepath.Abs(c.Export.Dir)
	if err != nil {
		return fmt.Errorf("%s: %w", s.name("export-dir"), err)
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %s does not exist; create the directory first (the server never creates it)", s.name("export-dir"), dir)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a directory; give the directory where export files may be written", s.name("export-dir"), dir)
	}
	c.Export.Dir = dir
	return nil
}
