package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// podmanGlobal are the global flags podman needs on these machines: vfs
// storage and runc, because the defaults fail on the kernel's overlay and
// cgroup layout here; podmanRun adds the rlimits and the host network (the
// server listens on the host's loopback, so nothing leaves the machine).
var (
	podmanGlobal = []string{"--storage-driver", "vfs", "--runtime", "runc"}
	podmanRun    = []string{"run", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024", "--network", "host"}
)

// requirePodman fails (never skips) when podman or runc is missing: CI
// installs them (.ci/run), and a person running this reads how.
func requirePodman(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"podman", "runc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed: the container tests need podman and runc (apt-get install -y podman runc)", tool)
		}
	}
}

func podman(t *testing.T, ctx context.Context, args ...string) string {
	t.Helper()
	return run(t, ctx, "", nil, "podman", append(slices.Clone(podmanGlobal), args...)...)
}

// release is a build of this checkout's commit the way a release is built:
// a plain clone, tagged v<server.json's version>, its images built by
// deploy/image/build.
type release struct {
	src, commit, version string // version as server.json has it: 0.1.0
	image, demo          string // the two image names the build printed
}

// buildRelease clones HEAD (uncommitted changes are not in it: commit
// first), tags it with server.json's version, as the release procedure does,
// and builds both images with the script the README gives. The images are
// removed at the end of the test.
func buildRelease(t *testing.T, ctx context.Context) release {
	t.Helper()
	requirePodman(t)
	root := moduleRoot(t)
	commit := strings.TrimSpace(run(t, ctx, root, nil, "git", "rev-parse", "HEAD"))
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	run(t, ctx, tmp, nil, "git", "clone", "--quiet", "--no-checkout", root, src)
	run(t, ctx, src, nil, "git", "checkout", "--quiet", commit)
	version := serverJSON(t, src).Version
	run(t, ctx, src, nil, "git", "-c", "user.name=ci", "-c", "user.email=ci@localhost", "tag", "-f", "-a", "-m", "release", "v"+version)

	start := time.Now()
	out := run(t, ctx, src, []string{
		"PODMAN=podman " + strings.Join(podmanGlobal, " "),
		"IMAGE=localhost/company-intel-mcp-test" + strconv.Itoa(os.Getpid()),
	}, filepath.Join(src, "deploy", "image", "build"))
	t.Logf("deploy/image/build: both binaries and both images in %s", time.Since(start).Round(time.Second))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		t.Fatalf("deploy/image/build printed no image names: %q", out)
	}
	r := release{src: src, commit: commit, version: version, image: lines[len(lines)-2], demo: lines[len(lines)-1]}
	t.Cleanup(func() {
		// The images take room in the vfs store; a failure here is only noise.
		exec.Command("podman", append(slices.Clone(podmanGlobal), "rmi", "--force", r.image, r.demo)...).Run()
	})
	return r
}

// TestImages builds the release and the demo image from a release clone,
// holds each image's --version and labels to the commit and to server.json's
// version, serves MCP over HTTP from the demo image (embedded backend,
// read-only root, data on a volume) and from the release image against an
// appsync-local on the host, and calls a tool through each.
func TestImages(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	r := buildRelease(t, ctx)

	if want := r.version; !strings.HasSuffix(r.image, ":"+want) || !strings.HasSuffix(r.demo, ":"+want) {
		t.Errorf("image tags %s, %s: want :%s (server.json's version)", r.image, r.demo, want)
	}
	for _, image := range []string{r.image, r.demo} {
		v := versionLines(t, podman(t, ctx, append(slices.Clone(podmanRun), "--rm", image, "--version")...))
		if v["mcp-server"] != "v"+r.version {
			t.Errorf("%s --version: %q, want v%s: server.json and the binary must agree", image, v["mcp-server"], r.version)
		}
		if v["revision"] != r.commit || v["modified"] != "false" {
			t.Errorf("%s --version names revision %q modified %q, want %s false", image, v["revision"], v["modified"], r.commit)
		}
		var inspect []struct {
			Config struct {
				User   string            `json:"User"`
				Labels map[string]string `json:"Labels"`
			} `json:"Config"`
		}
		if err := json.Unmarshal([]byte(podman(t, ctx, "image", "inspect", image)), &inspect); err != nil || len(inspect) != 1 {
			t.Fatalf("podman image inspect %s: %v", image, err)
		}
		c := inspect[0].Config
		if c.User != "65532:65532" {
			t.Errorf("%s runs as %q, want the non-root 65532:65532", image, c.User)
		}
		for label, want := range map[string]string{
			"org.opencontainers.image.revision":   r.commit,
			"org.opencontainers.image.version":    "v" + r.version,
			"org.opencontainers.image.source":     "https://github.com/companyintel/mcp-server",
			"io.modelcontextprotocol.server.name": serverJSON(t, r.src).Name,
		} {
			if c.Labels[label] != want {
				t.Errorf("%s label %s = %q, want %q", image, label, c.Labels[label], want)
			}
		}
	}

	t.Run("demo", func(t *testing.T) { testDemoImage(t, ctx, r) })
	t.Run("release", func(t *testing.T) { testReleaseImage(t, ctx, r) })
}

// testDemoImage starts the demo image with --embedded --http on a free
// loopback port, read-only root, the data directory a host directory owned
// by the image's user, and talks MCP to it.
func testDemoImage(t *testing.T, ctx context.Context, r release) {
	port := freePort(t)
	data := t.TempDir()
	// The image's user, 65532, writes there: give it the directory (as root),
	// or let anyone write (rootless podman maps 65532 to a subordinate uid).
	if os.Geteuid() == 0 {
		if err := os.Chown(data, 65532, 65532); err != nil {
			t.Fatalf("the data volume must belong to the image's user: %v", err)
		}
	} else if err := os.Chmod(data, 0o777); err != nil {
		t.Fatal(err)
	}
	name := container(t, ctx, r.demo, []string{"-v", data + ":/data", "-e", "MCP_COMPANIES=2000"},
		"--embedded", "--http", "127.0.0.1:"+strconv.Itoa(port))
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	waitContainer(t, ctx, name, base+"/readyz")
	tools := listAndSearch(t, ctx, base+"/mcp")
	if !slices.Contains(tools, "search_companies") || !slices.Contains(tools, "get_company") {
		t.Errorf("tools/list from the demo image: %v", tools)
	}
	if entries, _ := os.ReadDir(data); len(entries) == 0 {
		t.Errorf("the demo wrote nothing to its data volume")
	}
}

// testReleaseImage runs appsync-local on the host and the release image
// against it, configured by the environment alone, read-only root.
func testReleaseImage(t *testing.T, ctx context.Context, r release) {
	backend := startAppsyncLocal(t, ctx, r.src)
	port := freePort(t)
	name := container(t, ctx, r.image, []string{
		"-e", "APPSYNC_ENDPOINT=" + backend.endpoint,
		"-e", "APPSYNC_API_KEY=" + backend.apiKey,
		"-e", "MCP_HTTP_ADDR=127.0.0.1:" + strconv.Itoa(port),
		"-e", "LOG_FORMAT=json",
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	waitContainer(t, ctx, name, base+"/readyz")
	tools := listAndSearch(t, ctx, base+"/mcp")
	if !slices.Contains(tools, "search_companies") {
		t.Errorf("tools/list from the release image: %v", tools)
	}
	// The release build has no embedded backend, and says so.
	out, err := exec.CommandContext(ctx, "podman", append(append(slices.Clone(podmanGlobal), podmanRun...), "--rm", r.image, "--embedded")...).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "no embedded backend") {
		t.Errorf("release image --embedded: exit %d, %s; want exit 2 saying it has no embedded backend", code, out)
	}
}

// container starts image detached, read-only, with the flags this machine
// needs, and removes it when the test ends, showing its log on failure.
func container(t *testing.T, ctx context.Context, image string, opts []string, args ...string) string {
	t.Helper()
	name := fmt.Sprintf("deploy-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	cmd := append(slices.Clone(podmanRun), "--detach", "--name", name, "--read-only")
	cmd = append(append(append(cmd, opts...), image), args...)
	podman(t, ctx, cmd...)
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.Command("podman", append(slices.Clone(podmanGlobal), "logs", name)...).CombinedOutput()
			t.Logf("podman logs %s:\n%s", name, out)
		}
		exec.Command("podman", append(slices.Clone(podmanGlobal), "rm", "--force", "--time", "5", name)...).Run()
	})
	return name
}

// waitContainer waits for url to answer 200 while the container runs.
func waitContainer(t *testing.T, ctx context.Context, name, url string) {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	alive := func() error {
		out, err := exec.CommandContext(ctx, "podman", append(slices.Clone(podmanGlobal), "inspect", "--format", "{{.State.Status}}", name)...).Output()
		if err != nil {
			return fmt.Errorf("podman inspect: %w", err)
		}
		if s := strings.TrimSpace(string(out)); s != "running" && s != "created" {
			return fmt.Errorf("the container is %s", s)
		}
		return nil
	}
	if err := waitReady(wait, url, alive); err != nil {
		t.Fatal(err)
	}
}

// appsyncLocal is a backend on the host's loopback; issuer is its OIDC
// issuer's URL when started with --oidc-user.
type appsyncLocal struct{ endpoint, apiKey, issuer string }

// startAppsyncLocal builds cmd/appsync-local from src and starts it on a
// free loopback port with a small data set, a fixed API key and args.
func startAppsyncLocal(t *testing.T, ctx context.Context, src string, args ...string) appsyncLocal {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "appsync-local")
	run(t, ctx, src, []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-o", bin, "./cmd/appsync-local") // as the images: Go's cache has it
	port := freePort(t)
	b := appsyncLocal{endpoint: fmt.Sprintf("http://127.0.0.1:%d/graphql", port), apiKey: "deploy-test-key"}
	data := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--listen", fmt.Sprintf("127.0.0.1:%d", port), "--api-key", b.apiKey,
		"--data-dir", data, "--companies", "2000"}, args...)...)
	cmd.Env = baseEnv()
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("appsync-local:\n%s", log.String())
		}
	})
	wait, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	alive := func() error {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("appsync-local exited: %v", err)
		default:
			return nil
		}
	}
	// Any HTTP answer means it listens: an unauthenticated GET is refused.
	if err := waitListening(wait, fmt.Sprintf("127.0.0.1:%d", port), alive); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	// What a client needs is written to <data-dir>/appsync-local.env once
	// it listens.
	if slices.Contains(args, "--oidc-user") {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for b.issuer == "" {
			env, _ := os.ReadFile(filepath.Join(data, "appsync-local.env"))
			for _, line := range strings.Split(string(env), "\n") {
				if v, ok := strings.CutPrefix(line, "OIDC_ISSUER="); ok {
					b.issuer = v
				}
			}
			select {
			case <-wait.Done():
				t.Fatalf("appsync-local wrote no OIDC_ISSUER:\n%s", log.String())
			case <-tick.C:
			}
		}
	}
	return b
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// versionLines reads --version's "key value" lines.
func versionLines(t *testing.T, out string) map[string]string {
	t.Helper()
	v := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if key, val, ok := strings.Cut(line, " "); ok {
			v[key] = val
		}
	}
	return v
}
