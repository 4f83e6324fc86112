package config

// A setting is given as a flag or as the environment variable beside it,
// and an error about it names the one the person used, in the form they
// used: "--http 8080" for the flag, "MCP_HTTP_ADDR=8080" for the variable.
// The fix in the same message names other settings the same way, so that
// whoever configures through the environment is told what to set there.

// binding pairs a flag with the environment variable that stands in for it.
type binding struct {
	flag, env string
	// list says the two add up (comma-separated in the variable, the flag
	// repeatable) instead of the flag winning.
	list bool
}

// bindings are every flag that has a variable, in the order --help lists
// them. Flags without one (--timeout, --redis-timeout, --version) are set
// on the command line only.
var bindings = []binding{
	{flag: "endpoint", env: "APPSYNC_ENDPOINT"},
	{flag: "embedded", env: "MCP_EMBEDDED"},
	{flag: "data-dir", env: "MCP_DATA_DIR"},
	{flag: "companies", env: "MCP_COMPANIES"},
	{flag: "auth", env: "MCP_AUTH"},
	{flag: "allow-mutations", env: "ALLOW_MUTATIONS"},
	{flag: "hide-disabled-tools", env: "HIDE_DISABLED_TOOLS"},
	{flag: "feedback-tool", env: "MCP_FEEDBACK_TOOL"},
	{flag: "schema-extensions", env: "MCP_SCHEMA_EXTENSIONS"},
	{flag: "rate-limit", env: "RATE_LIMITS", list: true},
	{flag: "error-class", env: "ERROR_CLASSES", list: true},
	{flag: "redis-url", env: "REDIS_URL"},
	{flag: "max-answer-bytes", env: "MCP_MAX_ANSWER_BYTES"},
	{flag: "log-format", env: "LOG_FORMAT"},
	{flag: "log-level", env: "LOG_LEVEL"},
	{flag: "http", env: "MCP_HTTP_ADDR"},
	{flag: "public-url", env: "MCP_PUBLIC_URL"},
	{flag: "oauth-issuer", env: "MCP_OAUTH_ISSUERS", list: true},
	{flag: "read-scope", env: "MCP_READ_SCOPE"},
	{flag: "write-scope", env: "MCP_WRITE_SCOPE"},
	{flag: "upstream-auth", env: "MCP_UPSTREAM_AUTH"},
	{flag: "allowed-origins", env: "MCP_ALLOWED_ORIGINS", list: true},
	{flag: "allowed-hosts", env: "MCP_ALLOWED_HOSTS", list: true},
	{flag: "confirm-writes", env: "CONFIRM_WRITES"},
	{flag: "confirm-state-key", env: "CONFIRM_STATE_KEY"},
	{flag: "export-dir", env: "MCP_EXPORT_DIR"},
	{flag: "export-limit", env: "MCP_EXPORT_LIMIT"},
	{flag: "max-concurrent-exports", env: "MCP_MAX_CONCURRENT_EXPORTS"},
}

// envOf returns the variable beside flag, or "" when it has none.
func envOf(flag string) string {
	for _, b := range bindings {
		if b.flag == flag {
			return b.env
		}
	}
	return ""
}

// sources records how each setting was given.
type sources struct {
	// flags were given on the command line.
	flags map[string]bool
	// env were given through their variable (a list flag may be both).
	env map[string]bool
	// envItems are, for each list flag, the items its variable gave.
	envItems map[string]map[string]bool
}

// fromEnv reports whether flag's value came from its variable alone.
func (s sources) fromEnv(flag string) bool { return s.env[flag] && !s.flags[flag] }

// name is the setting as the person gave it: the variable when its value
// came from there, else the flag (also when neither was given: a fix names
// the flag).
func (s sources) name(flag string) string {
	if s.fromEnv(flag) {
		return envOf(flag)
	}
	return "--" + flag
}

// setting is the setting with its value as the person wrote it.
func (s sources) setting(flag, value string) string {
	if s.fromEnv(flag) {
		return envOf(flag) + "=" + value
	}
	return "--" + flag + " " + value
}

// item names the setting that gave one item of a list flag.
func (s sources) item(flag, value string) string {
	if s.envItems[flag][value] {
		return envOf(flag)
	}
	return "--" + flag
}

// like names another setting in a fix, the way subject was given: a
// person who set subject's variable is told the other variable.
func (s sources) like(subject, flag string) string {
	if env := envOf(flag); env != "" && s.fromEnv(subject) {
		return env
	}
	return "--" + flag
}

// likeSetting is like, with a value: "MCP_PUBLIC_URL=URL" or
// "--public-url URL".
func (s sources) likeSetting(subject, flag, value string) string {
	if env := envOf(flag); env != "" && s.fromEnv(subject) {
		return env + "=" + value
	}
	return "--" + flag + " " + value
}

// Name is how the person gave the setting of flag (without its dashes):
// its environment variable when the value came from there, else the flag.
// Errors found after start-up began (a port already taken) name it so.
func (c Config) Name(flag string) string { return c.from.name(flag) }

// Setting is the setting of flag with value, as the person wrote it:
// "--http 127.0.0.1:8080" or "MCP_HTTP_ADDR=127.0.0.1:8080".
func (c Config) Setting(flag, value string) string { return c.from.setting(flag, value) }
