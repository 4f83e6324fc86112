package qualify

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// write prints the report: what was qualified, each case, each tool's cost
// against its ceiling, and the verdict.
func (r Report) write(w io.Writer, backend, commit string, listed int) {
	if commit == "" {
		commit = "unknown"
	}
	fmt.Fprintf(w, "qualification of mcp-server\n  catalogue sha256:%s\n  commit    %s\n  backend   %s\n\n", r.CatalogHash, commit, backend)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tRUNS\tRESULT")
	failed := 0
	for _, c := range r.Cases {
		res := "ok"
		if len(c.Failures) > 0 {
			res, failed = "FAIL", failed+1
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\n", c.Name, c.Runs, res)
	}
	tw.Flush()
	for _, c := range r.Cases {
		for _, f := range c.Failures {
			fmt.Fprintf(w, "  %s: %s\n", c.Name, f)
		}
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "TOOL\tCALLS\tMAX ms\tCEILING ms\tMAX bytes\tCEILING bytes\tRESULT\t")
	over := 0
	for _, t := range r.Tools {
		res := "ok"
		if t.Failed() {
			res, over = "OVER", over+1
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", t.Tool, t.Calls, t.MaxLatency.Milliseconds(), t.Ceiling.LatencyMS, t.MaxBytes, t.Ceiling.Bytes, res)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d cases, %d failed; %d of %d listed tools covered", len(r.Cases), failed, listed-len(r.Uncovered), listed)
	if len(r.Uncovered) > 0 {
		fmt.Fprintf(w, " (not covered: %v)", r.Uncovered)
	}
	fmt.Fprintf(w, "; %d tools over their ceiling\n", over)
	if r.OK() {
		fmt.Fprintln(w, "QUALIFIED")
	} else {
		fmt.Fprintln(w, "NOT QUALIFIED")
	}
}
