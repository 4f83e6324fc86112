// Package authntest is a stand-in for the embedded backend in tests of
// authentication: an HTTP handler that authenticates each request as
// appsynclocal does and answers who the caller is, in AppSync's response
// shape, without building a database.
package authntest

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/companyintel/mcp-server/appsynclocal"
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

// MsgNotAuthorized is AppSync's 401 message for a request no authenticator
// accepts, as appsynclocal answers it.
const MsgNotAuthorized = "You are not authorized to make this call."

// Handler authenticates with appsynclocal's rule: the first authenticator
// that accepts the request wins; otherwise the first refusal's message, or
// MsgNotAuthorized when no authenticator recognised any credentials, is a
// 401 with errorType UnauthorizedException.
func Handler(auths ...appsynclocal.Authenticator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		var refusal error
		for _, a := range auths {
			id, ok, err := a.Authenticate(r, body)
			switch {
			case !ok:
			case err != nil:
				if refusal == nil {
					refusal = err
				}
			default:
				var data Whoami
				data.Whoami.Method, data.Whoami.Subject = id.Method, id.Subject
				writeJSON(w, http.StatusOK, map[string]any{"data": data})
				return
			}
		}
		msg := MsgNotAuthorized
		if refusal != nil {
			msg = refusal.Error()
		}
		writeJSON(w, http.StatusUnauthorized, map[string]any{
			"errors": []map[string]string{{"errorType": "UnauthorizedException", "message": msg}},
		})
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
