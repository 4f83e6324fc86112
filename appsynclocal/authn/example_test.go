package authn_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/companyintel/mcp-server/auth"
)

// Example wires the three modes into a backend and lets the server's auth
// chain get a token from the embedded issuer with client credentials, the
// way --embedded does.
func Example() {
	// The issuer, on its own loopback listener. Its client's ID is the
	// audience, so OIDC_AUDIENCE can default to OIDC_CLIENT_ID.
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Clients: []authn.Client{{ID: authn.DefaultAudience, Secret: "demo-client-secret", Subject: "demo-user"}},
	})
	if err != nil {
		panic(err)
	}
	defer iss.Close()

	// The backend trusts the issuer, one local IAM identity and one API key.
	sigv4, err := authn.NewSigV4Authenticator(authn.SigV4Config{
		Region:      "us-east-1",
		Credentials: []authn.SigV4Credential{{AccessKeyID: "AKIDLOCAL", SecretAccessKey: "local-secret", User: "ci"}},
	})
	if err != nil {
		panic(err)
	}
	backend := httptest.NewServer(authntest.Handler(iss.Authenticator(), sigv4, appsynclocal.NewAPIKeyAuthenticator("da2-local-key")))
	defer backend.Close()

	// The server resolves its credentials from these variables.
	vars := map[string]string{
		"OIDC_ISSUER":        iss.URL(),
		"OIDC_CLIENT_ID":     authn.DefaultAudience,
		"OIDC_CLIENT_SECRET": "demo-client-secret",
	}
	src, err := auth.Resolve(context.Background(), auth.Options{
		Endpoint: backend.URL + "/graphql",
		Getenv:   func(k string) string { return vars[k] },
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(src.Method, src.Principal)

	resp, err := (&http.Client{Transport: src.Transport}).Post(backend.URL+"/graphql", "application/json",
		strings.NewReader(`{"query":"`+authntest.WhoamiQuery+`"}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status)
	// Output:
	// oidc demo-user
	// 200 OK
}
