package config

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mistake on the command line is one line naming what was written and
// the fix, never the whole usage.
func TestFlagMistakesGetOneLineNotTheUsage(t *testing.T) {
	tests := []struct {
		args []string
		says []string
	}{
		{[]string{"--endpoitn", "https://x.example/graphql"}, []string{"unknown flag --endpoitn", "did you mean --endpoint?"}},
		{[]string{"--alow-mutations"}, []string{"unknown flag --alow-mutations", "did you mean --allow-mutations?"}},
		{[]string{"--zzzzzz"}, []string{"unknown flag --zzzzzz", "--help lists every flag"}},
		{[]string{"--timeout", "abc"}, []string{`--timeout "abc"`, "deadline for each backend call"}},
		{[]string{"--embedded=maybe"}, []string{`--embedded "maybe"`, "--embedded alone for true"}},
		{[]string{"--endpoint"}, []string{"--endpoint needs a value"}},
		{[]string{"--embedded", "--http", "8080"}, []string{"--http 8080 is a port alone", "127.0.0.1:8080"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			_, err := parse(tt.args, func(string) string { return "" }, &out)
			require.Error(t, err)
			for _, s := range tt.says {
				assert.Contains(t, err.Error(), s)
			}
			assert.NotContains(t, err.Error(), "\n", "one line")
			assert.NotContains(t, err.Error(), "not a loopback address")
			assert.Empty(t, out.String(), "no usage printed for a mistake")
		})
	}
}

func TestHelpListsTheSubcommands(t *testing.T) {
	var out bytes.Buffer
	_, err := parse([]string{"--help"}, func(string) string { return "" }, &out)
	require.True(t, errors.Is(err, flag.ErrHelp))
	for _, cmd := range []string{"check", "catalog", "demo-token", "--version", "-endpoint", "APPSYNC_ENDPOINT"} {
		assert.Contains(t, out.String(), cmd)
	}
}
