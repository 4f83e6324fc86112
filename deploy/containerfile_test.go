package deploy

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// instruction is one Containerfile instruction: its keyword in upper case
// and the rest of it, continuation lines joined.
type instruction struct {
	cmd, args string
}

// stage is one FROM and what follows it.
type stage struct {
	from, name string
	body       []instruction
}

// containerfile is a parsed Containerfile: the ARGs before the first FROM
// (name to default) and the stages in order.
type containerfile struct {
	globalArgs map[string]string
	stages     []stage
}

func (c containerfile) stage(name string) (stage, bool) {
	for _, s := range c.stages {
		if s.name == name {
			return s, true
		}
	}
	return stage{}, false
}

// parseContainerfile reads the Dockerfile syntax this repository uses:
// comments, blank lines, backslash continuations, FROM … AS name.
func parseContainerfile(t *testing.T, path string) containerfile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := containerfile{globalArgs: map[string]string{}}
	var pending strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && pending.Len() == 0) {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			pending.WriteString(cont + " ")
			continue
		}
		pending.WriteString(line)
		full := strings.TrimSpace(pending.String())
		pending.Reset()
		cmd, args, _ := strings.Cut(full, " ")
		in := instruction{strings.ToUpper(cmd), strings.TrimSpace(args)}
		switch {
		case in.cmd == "FROM":
			fields := strings.Fields(in.args)
			s := stage{from: fields[0]}
			if len(fields) == 3 && strings.EqualFold(fields[1], "AS") {
				s.name = fields[2]
			}
			c.stages = append(c.stages, s)
		case len(c.stages) == 0:
			if in.cmd != "ARG" {
				t.Fatalf("%s: %s before the first FROM", path, in.cmd)
			}
			name, def, _ := strings.Cut(in.args, "=")
			c.globalArgs[name] = def
		default:
			c.stages[len(c.stages)-1].body = append(c.stages[len(c.stages)-1].body, in)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if pending.Len() > 0 {
		t.Fatalf("%s ends in a continuation", path)
	}
	return c
}

// goVersion is the go line of the server's go.mod.
func goVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return string(m[1])
}

// imageStages are the stages both files share: the image itself.
var imageStages = []string{"base", "demo", "release"}

// The root Containerfile builds with a plain `podman build .` where a
// registry is reachable: a multi-stage build whose first stage is the
// official Go image at go.mod's version, then FROM scratch stages that run
// nothing (no shell, no network), a numeric non-root user, and release as
// the default (last) target. Only the build stage runs commands.
func TestContainerfileBuildsFromTheOfficialGoImage(t *testing.T) {
	root := moduleRoot(t)
	c := parseContainerfile(t, filepath.Join(root, "Containerfile"))

	goImage, ok := c.globalArgs["GO_IMAGE"]
	if !ok {
		t.Fatal("Containerfile: no ARG GO_IMAGE before the first FROM")
	}
	if want := regexp.MustCompile(`^docker\.io/library/golang:` + regexp.QuoteMeta(goVersion(t)) + `(-[a-z]+)?$`); !want.MatchString(goImage) {
		t.Errorf("GO_IMAGE defaults to %q: want the official image at go.mod's version, docker.io/library/golang:%s[-variant] (fully qualified: podman has no default registry)", goImage, goVersion(t))
	}
	if len(c.stages) != 4 {
		t.Fatalf("stages %d: want build, base, demo, release", len(c.stages))
	}
	if b := c.stages[0]; b.name != "build" || b.from != "${GO_IMAGE}" {
		t.Errorf("first stage FROM %s AS %s: want FROM ${GO_IMAGE} AS build", b.from, b.name)
	}
	if last := c.stages[len(c.stages)-1]; last.name != "release" {
		t.Errorf("the last stage, what a plain build makes, is %q: want release", last.name)
	}
	var builds []string
	for _, in := range c.stages[0].body {
		if in.cmd == "RUN" && strings.HasPrefix(in.args, "go build ") {
			builds = append(builds, in.args)
		}
	}
	if len(builds) != 2 {
		t.Fatalf("build stage: %d go build commands, want the release and the demo binary", len(builds))
	}
	for i, b := range builds {
		for _, flag := range []string{" -trimpath ", " -ldflags='-s -w' ", " ./cmd/server"} {
			if !strings.Contains(b, flag) {
				t.Errorf("go build %s lacks %s: build as deploy/image/build does", b, flag)
			}
		}
		if noembedded := strings.Contains(b, " -tags noembedded "); noembedded != (i == 0) {
			t.Errorf("go build %s: the release binary (first) is -tags noembedded, the demo's is not", b)
		}
	}
	if env := instructionsOf(c.stages[0], "ENV"); !slices.Contains(env, "CGO_ENABLED=0") {
		t.Errorf("build stage ENV %q: want CGO_ENABLED=0, a static binary for FROM scratch", env)
	}

	for _, name := range imageStages {
		s, ok := c.stage(name)
		if !ok {
			t.Fatalf("no stage %s", name)
		}
		for _, in := range s.body {
			switch in.cmd {
			case "RUN", "ADD":
				t.Errorf("stage %s: %s %s: the image stages copy, they run and fetch nothing", name, in.cmd, in.args)
			case "COPY":
				src := copySource(in.args)
				if strings.Contains(in.args, "--from=") {
					if !strings.Contains(in.args, "--from=build") {
						t.Errorf("stage %s: COPY %s: copy from the build stage only", name, in.args)
					}
					continue
				}
				if _, err := os.Stat(filepath.Join(root, src)); err != nil {
					t.Errorf("stage %s: COPY %s: %v", name, in.args, err)
				}
			}
		}
	}
	checkImageStages(t, "Containerfile", c)

	ignore, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git", "**/node_modules"} {
		if !slices.Contains(strings.Split(string(ignore), "\n"), want) {
			t.Errorf(".dockerignore does not leave out %s", want)
		}
	}
}

// The offline Containerfile, what deploy/image/build and CI use, pulls no
// image, and its image stages are the root Containerfile's but for where
// the files come from: the same user, entry point, environment, labels,
// ports and volume, and the same files in the same places.
func TestOfflineContainerfileMatchesTheRootOne(t *testing.T) {
	root := moduleRoot(t)
	online := parseContainerfile(t, filepath.Join(root, "Containerfile"))
	offline := parseContainerfile(t, filepath.Join(root, "deploy", "image", "Containerfile.offline"))
	if len(offline.globalArgs) != 0 {
		t.Errorf("offline: global ARGs %v: it names no base image", offline.globalArgs)
	}
	var names []string
	for _, s := range offline.stages {
		names = append(names, s.name)
		if s.from != "scratch" && s.from != "base" {
			t.Errorf("offline stage %s FROM %s: it must pull nothing", s.name, s.from)
		}
		for _, in := range s.body {
			if in.cmd == "RUN" || in.cmd == "ADD" {
				t.Errorf("offline stage %s: %s %s", s.name, in.cmd, in.args)
			}
		}
	}
	if !slices.Equal(names, imageStages) {
		t.Errorf("offline stages %v: want %v", names, imageStages)
	}
	checkImageStages(t, "deploy/image/Containerfile.offline", offline)
	for _, name := range imageStages {
		on, _ := online.stage(name)
		off, _ := offline.stage(name)
		if on.from != off.from {
			t.Errorf("stage %s FROM %s online, %s offline", name, on.from, off.from)
		}
		for _, cmd := range []string{"ARG", "ENV", "USER", "EXPOSE", "ENTRYPOINT", "CMD", "LABEL", "VOLUME", "WORKDIR"} {
			if a, b := instructionsOf(on, cmd), instructionsOf(off, cmd); !slices.Equal(a, b) {
				t.Errorf("stage %s %s: online %q, offline %q", name, cmd, a, b)
			}
		}
		if a, b := copyTargets(on), copyTargets(off); !slices.Equal(a, b) {
			t.Errorf("stage %s copies to %q online, %q offline", name, a, b)
		}
	}
}

// checkImageStages holds the image stages of either file to what the
// deployment relies on: FROM scratch, the non-root user 65532, the binary
// as entry point, release and demo on base.
func checkImageStages(t *testing.T, file string, c containerfile) {
	t.Helper()
	base, _ := c.stage("base")
	if base.from != "scratch" {
		t.Errorf("%s: base FROM %s, want scratch", file, base.from)
	}
	users := instructionsOf(base, "USER")
	if len(users) != 1 || !regexp.MustCompile(`^[1-9][0-9]*:[1-9][0-9]*$`).MatchString(users[0]) {
		t.Errorf("%s: base USER %q: want one numeric non-root uid:gid (runAsNonRoot checks it)", file, users)
	}
	if ep := instructionsOf(base, "ENTRYPOINT"); !slices.Equal(ep, []string{`["/usr/local/bin/mcp-server"]`}) {
		t.Errorf("%s: base ENTRYPOINT %q", file, ep)
	}
	for _, name := range []string{"demo", "release"} {
		s, _ := c.stage(name)
		if s.from != "base" {
			t.Errorf("%s: %s FROM %s, want base", file, name, s.from)
		}
		if !slices.Contains(copyTargets(s), "/usr/local/bin/mcp-server") {
			t.Errorf("%s: %s copies no /usr/local/bin/mcp-server", file, name)
		}
	}
}

func instructionsOf(s stage, cmd string) []string {
	var out []string
	for _, in := range s.body {
		if in.cmd == cmd {
			out = append(out, strings.Join(strings.Fields(in.args), " "))
		}
	}
	return out
}

// copySource and copyTarget read COPY [--flags] SRC DEST.
func copySource(args string) string {
	f := copyOperands(args)
	return f[0]
}

func copyTargets(s stage) []string {
	var out []string
	for _, in := range s.body {
		if in.cmd == "COPY" {
			f := copyOperands(in.args)
			out = append(out, f[len(f)-1])
		}
	}
	slices.Sort(out)
	return out
}

func copyOperands(args string) []string {
	var f []string
	for _, w := range strings.Fields(args) {
		if !strings.HasPrefix(w, "--") {
			f = append(f, w)
		}
	}
	return f
}
