package config

import (
	"cmp"
	"slices"

	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// catalogue is the real tools' facts in catalogue order, as the server
// passes them: configuration is tested against the tools it names.
func catalogue() []tools.Facts {
	all := append(append(read.Facts(), write.Facts()...), feedback.Facts)
	slices.SortFunc(all, func(a, b tools.Facts) int { return cmp.Compare(a.Order, b.Order) })
	return all
}

// writeTools are the write tools' names, in catalogue order.
func writeTools() []string {
	var out []string
	for _, f := range catalogue() {
		if f.Writes() {
			out = append(out, f.Name)
		}
	}
	return out
}

// parse is Parse against the real catalogue.
func parse(args []string, getenv func(string) string) (Config, error) {
	return Parse(args, getenv, catalogue())
}
