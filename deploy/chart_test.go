package deploy

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/releaseutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

const chartDir = "helm/company-intel-mcp"

// valuesFiles are the values the chart is checked with: its own defaults
// (the demo), a production-like install and the least a real install needs.
var valuesFiles = map[string]string{
	"default":    "",
	"production": "helm/examples/production.yaml",
	"minimal":    "helm/examples/minimal.yaml",
}

func values(t *testing.T, file string, overrides map[string]any) map[string]any {
	t.Helper()
	vals := map[string]any{}
	if file != "" {
		v, err := chartutil.ReadValuesFile(file)
		if err != nil {
			t.Fatal(err)
		}
		vals = v.AsMap()
	}
	return chartutil.MergeTables(overrides, vals)
}

func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	ch, err := loader.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// render is helm template: the chart rendered client-side, no cluster.
func render(ch *chart.Chart, vals map[string]any) (string, error) {
	install := action.NewInstall(&action.Configuration{})
	install.DryRun, install.ClientOnly, install.Replace = true, true, true
	install.ReleaseName, install.Namespace = "ci", "mcp"
	rel, err := install.Run(ch, vals)
	if err != nil {
		return "", err
	}
	return rel.Manifest, nil
}

// rendered holds the objects of one rendering, each decoded strictly.
type rendered struct {
	deployment     *appsv1.Deployment
	service        *corev1.Service
	pdb            *policyv1.PodDisruptionBudget
	networkPolicy  *networkingv1.NetworkPolicy
	serviceMonitor *monitoringv1.ServiceMonitor
	kinds          []string
}

// decodeStrict decodes every document of a manifest into its Kubernetes API
// type, refusing unknown and duplicate fields; a kind the chart should not
// render fails.
func decodeStrict(t *testing.T, manifest string) rendered {
	t.Helper()
	var r rendered
	for name, doc := range releaseutil.SplitManifests(manifest) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "apps/v1 Deployment":
			r.deployment = &appsv1.Deployment{}
			obj = r.deployment
		case "v1 Service":
			r.service = &corev1.Service{}
			obj = r.service
		case "v1 ServiceAccount":
			obj = &corev1.ServiceAccount{}
		case "policy/v1 PodDisruptionBudget":
			r.pdb = &policyv1.PodDisruptionBudget{}
			obj = r.pdb
		case "networking.k8s.io/v1 NetworkPolicy":
			r.networkPolicy = &networkingv1.NetworkPolicy{}
			obj = r.networkPolicy
		case "monitoring.coreos.com/v1 ServiceMonitor":
			r.serviceMonitor = &monitoringv1.ServiceMonitor{}
			obj = r.serviceMonitor
		default:
			t.Fatalf("%s: unexpected object %s %s", name, tm.APIVersion, tm.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("%s (%s) does not decode strictly as %T: %v\n%s", name, tm.Kind, obj, err, doc)
		}
		r.kinds = append(r.kinds, tm.Kind)
	}
	slices.Sort(r.kinds)
	if r.deployment == nil || r.service == nil {
		t.Fatalf("no Deployment or Service rendered: %v", r.kinds)
	}
	return r
}

// TestChartLints is helm lint --strict with each values file.
func TestChartLints(t *testing.T) {
	for name, file := range valuesFiles {
		lint := action.NewLint()
		lint.Strict = true
		result := lint.Run([]string{chartDir}, values(t, file, nil))
		for _, m := range result.Messages {
			if m.Severity >= support.WarningSev {
				t.Errorf("helm lint (%s values): %s", name, m)
			}
		}
		for _, err := range result.Errors {
			t.Errorf("helm lint (%s values): %v", name, err)
		}
	}
}

// TestChartRendersStrictly renders the chart with each values file and
// decodes every object strictly, then holds the Deployment to what a
// secure service needs.
func TestChartRendersStrictly(t *testing.T) {
	ch := loadChart(t)
	for name, file := range valuesFiles {
		t.Run(name, func(t *testing.T) {
			manifest, err := render(ch, values(t, file, nil))
			if err != nil {
				t.Fatalf("helm template: %v", err)
			}
			r := decodeStrict(t, manifest)
			d := r.deployment
			pod := d.Spec.Template.Spec
			if len(pod.Containers) != 1 {
				t.Fatalf("%d containers", len(pod.Containers))
			}
			c := pod.Containers[0]
			sc := c.SecurityContext
			if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
				sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
				sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot ||
				sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
				t.Errorf("container securityContext is not restrictive: %+v", sc)
			}
			if psc := pod.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.SeccompProfile == nil {
				t.Errorf("pod securityContext: %+v", psc)
			}
			if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
				t.Error("the service account token is mounted; the server never talks to the Kubernetes API")
			}
			if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
				t.Errorf("liveness probe: %+v", c.LivenessProbe)
			}
			if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
				t.Errorf("readiness probe: %+v", c.ReadinessProbe)
			}
			if c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("resources: %+v", c.Resources)
			}
			if r.pdb == nil {
				t.Error("no PodDisruptionBudget")
			}
			env := map[string]corev1.EnvVar{}
			for _, e := range c.Env {
				env[e.Name] = e
			}
			if got := env["ALLOW_MUTATIONS"].Value; got != "" {
				t.Errorf("ALLOW_MUTATIONS=%q: the mutation ceiling must be off by default", got)
			}
			for _, secret := range []string{"APPSYNC_API_KEY", "MCP_EXCHANGE_CLIENT_SECRET", "REDIS_URL"} {
				if e, ok := env[secret]; ok && (e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
					t.Errorf("%s is not a Secret reference: %+v", secret, e)
				}
			}
			if name == "production" {
				if *d.Spec.Replicas != 3 || r.networkPolicy == nil || r.serviceMonitor == nil || env["REDIS_URL"].ValueFrom == nil {
					t.Errorf("production: replicas %d, objects %v, REDIS_URL %+v", *d.Spec.Replicas, r.kinds, env["REDIS_URL"])
				}
			}
		})
	}
}

// TestChartRefusesInsecureValues: values that would start an insecure
// service stop helm template with a plain message saying what to change.
func TestChartRefusesInsecureValues(t *testing.T) {
	ch := loadChart(t)
	for name, c := range map[string]struct {
		overrides map[string]any
		want      string
	}{
		"a public URL without an OAuth issuer": {
			map[string]any{"oauth": map[string]any{"issuers": []any{}}},
			"publicURL is https://mcp.example.com/mcp but oauth.issuers is empty",
		},
		"mutations on without a write scope": {
			map[string]any{"mutations": map[string]any{"allow": "true"}, "scopes": map[string]any{"write": ""}},
			`mutations.allow is "true" but scopes.write is empty`,
		},
		"a Redis URL with a password in plain values": {
			map[string]any{"redis": map[string]any{"url": "rediss://default:hunter2@redis.internal.example:6380/0"}},
			"redis.url carries a password in plain values",
		},
		"a public URL over plain http": {
			map[string]any{"publicURL": "http://mcp.example.com/mcp"},
			"is plain http",
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := render(ch, values(t, valuesFiles["minimal"], c.overrides))
			if err == nil {
				t.Fatal("the chart rendered")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error repeats the password: %v", err)
			}
		})
	}
	// The same values with the password behind a Secret render.
	if _, err := render(ch, values(t, valuesFiles["minimal"], map[string]any{
		"redis": map[string]any{"existingSecret": map[string]any{"name": "company-intel-mcp", "key": "redis-url"}},
	})); err != nil {
		t.Errorf("redis.existingSecret: %v", err)
	}
}

// TestChartDeploymentStartsTheBinary starts the binary with exactly the
// rendered Deployment's command, args and environment (Secret references
// resolved from a stand-in Secret, volume mounts from temporary
// directories), listening on a free loopback port: it must become ready on
// the readiness probe's path and answer a tokenless /mcp with the OAuth
// challenge for the public URL. Two installs: the minimal values pointed at
// an appsync-local on this machine (its OIDC issuer as the OAuth issuer),
// run by the release binary; and the chart's defaults (the demo), run by the
// demo binary.
func TestChartDeploymentStartsTheBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root := moduleRoot(t)
	tmp := t.TempDir()
	release, demo := filepath.Join(tmp, "mcp-server"), filepath.Join(tmp, "mcp-server-demo")
	// As deploy/image/build builds them, so Go's cache serves both.
	run(t, ctx, root, []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-tags", "noembedded", "-o", release, "./cmd/server")
	run(t, ctx, root, []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-o", demo, "./cmd/server")

	t.Run("minimal", func(t *testing.T) {
		backend := startAppsyncLocal(t, ctx, root, "--oidc-user", "alice")
		port := freePort(t)
		startDeployment(t, ctx, release, values(t, valuesFiles["minimal"], map[string]any{
			"appsync": map[string]any{"endpoint": backend.endpoint},
			"oauth":   map[string]any{"issuers": []any{backend.issuer}},
			"http":    map[string]any{"listenHost": "127.0.0.1", "port": port},
		}), port, map[string]string{"company-intel-mcp/appsync-api-key": backend.apiKey}, "mcp.example.com", "https://mcp.example.com/")
	})
	t.Run("default", func(t *testing.T) {
		port := freePort(t)
		startDeployment(t, ctx, demo, values(t, "", map[string]any{
			"embedded": map[string]any{"companies": 2000},
			"http":     map[string]any{"listenHost": "127.0.0.1", "port": port},
		}), port, nil, "127.0.0.1:8080", "http://127.0.0.1:8080/")
	})
}

// startDeployment renders the chart with vals, runs bin as its Deployment
// says, waits for the probes and checks the tokenless challenge sent with
// Host host names the resource metadata under publicBase.
func startDeployment(t *testing.T, ctx context.Context, bin string, vals map[string]any, port int, secrets map[string]string, host, publicBase string) {
	t.Helper()
	manifest, err := render(loadChart(t), vals)
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	c := decodeStrict(t, manifest).deployment.Spec.Template.Spec.Containers[0]
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = t.TempDir()
	}
	env := []string{"HOME=/nonexistent"} // as in the image
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			v := e.Value
			if dir, ok := mounts[v]; ok {
				v = dir // a path on a volume: the volume here
			}
			env = append(env, e.Name+"="+v)
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			v, ok := secrets[ref.Name+"/"+ref.Key]
			if !ok {
				t.Fatalf("%s refers to Secret %s key %s, which the test does not stand in for", e.Name, ref.Name, ref.Key)
			}
			env = append(env, e.Name+"="+v)
		default:
			t.Fatalf("%s: unexpected valueFrom %+v", e.Name, e.ValueFrom)
		}
	}
	if len(c.Command) != 0 {
		t.Fatalf("the Deployment overrides the image's entrypoint with %v", c.Command)
	}
	server := exec.CommandContext(ctx, bin, c.Args...)
	server.Env = env
	var log strings.Builder
	server.Stdout, server.Stderr = &log, &log
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- server.Wait() }()
	defer func() {
		server.Process.Signal(os.Interrupt)
		<-exited
		if t.Failed() {
			t.Logf("server log:\n%s", log.String())
		}
	}()
	alive := func() error {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("the server exited: %v", err)
		default:
			return nil
		}
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	wait, stop := context.WithTimeout(ctx, 3*time.Minute)
	defer stop()
	if err := waitReady(wait, base+c.ReadinessProbe.HTTPGet.Path, alive); err != nil {
		t.Fatal(err)
	}
	if err := waitReady(wait, base+c.LivenessProbe.HTTPGet.Path, alive); err != nil {
		t.Fatal(err)
	}

	// Through the balancer (or the port-forward) the Host is the public URL's.
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, publicBase+".well-known/oauth-protected-resource") {
		t.Errorf("tokenless /mcp: %d %q; want 401 naming the public URL's resource metadata", resp.StatusCode, challenge)
	}
}
