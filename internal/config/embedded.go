//go:build !noembedded

package config

import (
	"fmt"
	"strconv"

	"github.com/companyintel/mcp-server/appsynclocal"
)

// defaultCompanies is --companies when neither it nor MCP_COMPANIES is given.
const defaultCompanies = appsynclocal.DefaultCompanies

// companiesUsage describes --companies in --help.
var companiesUsage = fmt.Sprintf("embedded backend: how many synthetic companies, 1 to %d", appsynclocal.MaxCompanies)

// checkEmbedded checks the flags of the embedded backend. A size out of
// range is refused, never replaced by the default or the maximum.
func checkEmbedded(c Config) error {
	if c.Companies < 1 || c.Companies > appsynclocal.MaxCompanies {
		return fmt.Errorf("%s is out of range; give 1 to %d, e.g. %s",
			c.from.setting("companies", strconv.Itoa(c.Companies)), appsynclocal.MaxCompanies, c.from.setting("companies", strconv.Itoa(defaultCompanies)))
	}
	return nil
}
