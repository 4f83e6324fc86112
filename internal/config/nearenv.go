package config

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/internal/suggest"
)

// EnvWarning is an environment variable the server does not read whose
// name is so close to one it does that it was most likely meant for it: a
// typo (ALLOW_MUTATION), another case (log_level), or another prefix
// (MCP_ALLOW_MUTATIONS, HTTP_ADDR). A misspelt flag stops start-up; a
// misspelt variable cannot be told from someone else's with certainty, so
// it is warned about, in one line naming the nearest variable.
type EnvWarning struct {
	// Name is the variable as set; Nearest the server's variable it is
	// closest to.
	Name, Nearest string
}

func (w EnvWarning) String() string {
	return fmt.Sprintf("%s is set but this server does not read it; did you mean %s? (mcp-server --help lists every variable)", w.Name, w.Nearest)
}

// sdkPrefixes are the families whose other members are read by a library
// the server uses (the AWS SDK reads dozens of AWS_ variables the server
// does not list), so a name in them the server does not list is no mistake.
var sdkPrefixes = []string{"AWS_"}

// ourPrefixes are prefixes people add to, or leave off, a variable's name:
// MCP_ALLOW_MUTATIONS for ALLOW_MUTATIONS, HTTP_ADDR for MCP_HTTP_ADDR.
var ourPrefixes = []string{"MCP_SERVER_", "MCP_"}

// serverEnv is the names the server reads (the concrete ones) and the
// families it reads whole (the entries of Environment ending in *).
func serverEnv() (names, families []string) {
	for _, v := range Environment {
		for n := range strings.SplitSeq(v.Name, ",") {
			n = strings.TrimSpace(n)
			if f, ok := strings.CutSuffix(n, "*"); ok {
				families = append(families, f)
			} else {
				names = append(names, n)
			}
		}
	}
	for _, b := range bindings {
		if b.env != "" && !slices.Contains(names, b.env) {
			names = append(names, b.env)
		}
	}
	return names, families
}

// EnvironmentWarnings looks at every variable of environ ("NAME=value", as
// os.Environ gives) and returns one warning, in the order of environ, for
// each that the server does not read but whose name is close to one it
// does. Variables unrelated to the server (PATH, HOME, KUBERNETES_…,
// another program's settings) and the AWS SDK's own are left alone.
func EnvironmentWarnings(environ []string) []EnvWarning {
	names, families := serverEnv()
	var out []EnvWarning
	seen := map[string]bool{}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "" || seen[name] || utf8.RuneCountInString(name) > 100 || slices.Contains(names, name) {
			continue
		}
		seen[name] = true
		if hasPrefix(name, families) || hasPrefix(strings.ToUpper(name), sdkPrefixes) {
			continue
		}
		if near, ok := nearestEnv(name, names); ok {
			out = append(out, EnvWarning{Name: name, Nearest: near})
		}
	}
	return out
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// nearestEnv is the server's variable name is most likely meant for, if
// any: the same name in another case or with '-' for '_', the same name
// with one of ourPrefixes added or left off, or a typo of it. A typo is
// counted with suggest.Distance (the one misspelt flags are matched with)
// and must be small for the name's length: none for names of up to five
// letters (AUTH is not PATH), one up to nine (LOG_LEVL), two beyond
// (ALOW_MUTATION). The nearest wins; ties go to the order of Environment.
func nearestEnv(name string, names []string) (string, bool) {
	v := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name))
	vc := core(v)
	best, bestDist := "", -1
	for _, n := range names {
		nc := core(n)
		d := min(suggest.Distance([]rune(v), []rune(n)), suggest.Distance([]rune(vc), []rune(nc)))
		if d > typoAllowance(nc) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	return best, bestDist >= 0
}

// core is a name without the prefix people add or leave off.
func core(n string) string {
	for _, p := range ourPrefixes {
		if c, ok := strings.CutPrefix(n, p); ok && c != "" {
			return c
		}
	}
	return n
}

func typoAllowance(n string) int {
	switch l := utf8.RuneCountInString(n); {
	case l <= 5:
		return 0
	case l <= 9:
		return 1
	default:
		return 2
	}
}
