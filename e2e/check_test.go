package e2e

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runCheck runs `server check` with args and env; it returns stdout and the
// exit code.
func runCheck(t *testing.T, args []string, env ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, serverBin, append([]string{"check"}, args...)...)
	cmd.Env = append(childEnv(), env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err, "stderr: %s", stderr.String())
	}
	return stdout.String(), code
}

// The pre-flight against the embedded backend passes and names the auth
// method and principal, the backend's answer and the catalogue hash.
func TestCheckEmbeddedPasses(t *testing.T) {
	out, code := runCheck(t, embeddedArgs())
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "ok   auth: oidc as demo-user")
	assert.Contains(t, out, "token expires ")
	assert.Regexp(t, regexp.MustCompile(`ok   backend: http://127\.0\.0\.1:\d+/graphql answered \{ __typename \} in \d+ ms`), out)
	assert.Regexp(t, regexp.MustCompile(`ok   catalogue: sha256:[0-9a-f]{64} \(10 tools`), out)
	// The hash check names is the contract's, as `catalog --hash` prints it.
	hash, err := exec.Command(serverBin, "catalog", "--hash").Output()
	require.NoError(t, err)
	assert.Contains(t, out, "ok   catalogue: sha256:"+strings.TrimSpace(string(hash))+" ")
	assert.Contains(t, out, "writes       off")
	assert.Contains(t, out, "check passed")
}

// Against an endpoint nobody listens on, the backend check fails with the
// fix, and the exit code says so; the API key is never printed.
func TestCheckDeadEndpointFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := "http://" + ln.Addr().String() + "/graphql"
	require.NoError(t, ln.Close()) // the port is now closed: connections are refused

	out, code := runCheck(t, []string{"--endpoint", dead}, "APPSYNC_API_KEY=da2-e2esecretkey000000")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "ok   auth: apikey")
	assert.Contains(t, out, "FAIL backend: "+dead+" did not answer")
	assert.Contains(t, out, "fix: check that --endpoint is the API's GraphQL URL")
	assert.Contains(t, out, "check failed")
	assert.NotContains(t, out, "da2-e2esecretkey000000")
}

// A Redis nobody answers fails the check (a run would refuse every limited
// tool), and its password is printed nowhere.
func TestCheckUnreachableRedisFailsWithoutSecret(t *testing.T) {
	out, code := runCheck(t, embeddedArgs(), "REDIS_URL=redis://:da2-e2esecretkey000000@127.0.0.1:1")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "limit store  redis redis://127.0.0.1:1")
	assert.Contains(t, out, "FAIL limit store: redis://127.0.0.1:1 did not answer")
	assert.NotContains(t, out, "da2-e2esecretkey000000")
}
