// Package authntest is a stand-in for the embedded backend in tests of
// authentication: an HTTP handler that authenticates each request the way
// appsynclocal does and answers who the caller is, in AppSync's response
// shape.
package authntest

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// WhoamiQuery is a GraphQL query the handler answers (it does not parse
// queries: every authenticated request gets the same answer).
const WhoamiQuery = "query Whoami { whoami { method subject } }"

// Whoami is the data of a successful answer.
type Whoami struct {
	Whoami struct {
		Method  string `json:"method"`
		Subject string `json:"subject"`
	} `json:"whoami"`
}

// msgMissing is AppSync's answer to a request without credentials.
const msgMissing = "Missing authorization header"

// Handler tries the authenticators in order: the first that recognises the
// request's credentials decides. A refusal is a 401 with errorType
// UnauthorizedException and the authenticator's message.
func Handler(auths ...authn.Authenticator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		for _, a := range auths {
			id, ok, err := a.Authenticate(r, body)
			if err != nil {
				unauthorized(w, err.Error())
				return
			}
			if ok {
				var data Whoami
				data.Whoami.Method, data.Whoami.Subject = id.Method, id.Subject
				writeJSON(w, http.StatusOK, map[string]any{"data": data})
				return
			}
		}
		unauthorized(w, msgMissing)
	})
}

func unauthorized(w http.ResponseWriter, msg string) {
	w.Header().Set("x-amzn-ErrorType", "UnauthorizedException")
	writeJSON(w, http.StatusUnauthorized, map[string]any{
		"errors": []map[string]string{{"errorType": "UnauthorizedException", "message": msg}},
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
