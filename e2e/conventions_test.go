package e2e

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runBinary runs the built server with args, env added to childEnv and an
// empty stdin; it returns stdout, stderr and the exit code.
func runBinary(t *testing.T, name string, args []string, env ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(childEnv(), env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err, "stderr: %s", stderr.String())
	}
	return stdout.String(), stderr.String(), code
}

// What a person asks for goes to stdout with exit 0, so a shell pipe reads
// it: `mcp-server --help | grep -e --allow-mutations` finds the flag, listed
// as it is written everywhere else (--name, not Go's -name).
func TestHelpAndVersionPipeToGrep(t *testing.T) {
	out, errOut, code := runBinary(t, "sh", []string{"-c", `"$0" --help | grep -e '^  --allow-mutations' && "$0" --version | grep '^revision '`, serverBin})
	require.Equal(t, 0, code, "grep found nothing on stdout: %s", errOut)
	assert.Regexp(t, `(?m)^  --allow-mutations$`, out)
	assert.Regexp(t, `(?m)^revision `, out)
}

// A variable close to one of the server's is warned about at start, naming
// the one meant; the server starts as configured otherwise (writes off).
func TestMisnamedVariableIsWarnedAtStart(t *testing.T) {
	_, errOut, code := runBinary(t, serverBin, embeddedArgs(), "ALLOW_MUTATION=true")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^level=WARN msg="ALLOW_MUTATION is set but this server does not read it; did you mean ALLOW_MUTATIONS\? \(mcp-server --help lists every variable\)" variable=ALLOW_MUTATION nearest=ALLOW_MUTATIONS$`, errOut)
	assert.Regexp(t, `msg="starting mcp-server".* mutations=false`, errOut)
}

// An HTTP address already taken stops start-up (exit 2) naming the setting
// as it was given and a free port.
func TestAddressInUseNamesTheFix(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer held.Close()
	addr := held.Addr().String()
	_, errOut, code := runBinary(t, serverBin, append(embeddedArgs(), "--http", addr))
	assert.Equal(t, 2, code, errOut)
	assert.Regexp(t, regexp.QuoteMeta("mcp-server: --http "+addr+": port ")+`\d+ is already in use .*give --http another port, e\.g\. --http 127\.0\.0\.1:\d+ \(free now\)`, errOut)
}
