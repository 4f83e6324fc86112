package app

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readStatus reads the status resource as the client of r.
func (r *running) readStatus() map[string]any {
	r.t.Helper()
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, r.id, StatusURI))
	res := r.read()["result"].(map[string]any)
	var st map[string]any
	require.NoError(r.t, json.Unmarshal([]byte(res["contents"].([]any)[0].(map[string]any)["text"].(string)), &st))
	return st
}

// The status resource tells the agent, before it writes, whether its writes
// will be put to the person: the operator's mode and this client's ability
// to ask decide it.
func TestStatusSaysWhetherWritesArePutToThePerson(t *testing.T) {
	const elicits, cannot = `{"elicitation":{"form":{}}}`, `{}`
	for _, tt := range []struct {
		mode, capabilities string
		put                bool
		says               string
	}{
		{"required", elicits, true, "happens only if they accept"},
		{"ask", elicits, true, "happens only if they accept"},
		{"ask", cannot, false, "your writes happen without the person confirming them"},
		{"required", cannot, false, "so write tools will be refused"},
		{"off", elicits, false, "Your writes are not put to the person"},
	} {
		t.Run(tt.mode+" "+tt.capabilities, func(t *testing.T) {
			r, _ := confirmingClient(t, tt.mode, tt.capabilities)
			c := r.readStatus()["mutations"].(map[string]any)["confirmed"].(map[string]any)
			assert.Equal(t, tt.put, c["writes_put_to_person"])
			assert.Contains(t, c["for_you"], tt.says)
		})
	}
}

// Over stateless HTTP a 2025-11-25 client that declared elicitation still
// cannot be asked; a 2026-07-28 client that declares it with the request is.
func TestHTTPStatusSaysWhetherThisClientsWritesArePutToThePerson(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL(), "--allow-mutations", "--confirm-writes", "required")
	require.NoError(t, err)
	status := func(body string, headers map[string]string) map[string]any {
		t.Helper()
		text := readBody(t, post(t, srv.base, body, headers))
		var out struct {
			Result struct {
				Contents []struct {
					Text string `json:"text"`
				} `json:"contents"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &out), text)
		require.Len(t, out.Result.Contents, 1, text)
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(out.Result.Contents[0].Text), &st))
		return st["mutations"].(map[string]any)["confirmed"].(map[string]any)
	}

	resp := post(t, srv.base, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	require.Equal(t, 200, resp.StatusCode, readBody(t, resp))
	old := status(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"companies://server/status"}}`, map[string]string{"MCP-Protocol-Version": "2025-11-25"})
	assert.Equal(t, false, old["writes_put_to_person"])
	assert.Contains(t, old["for_you"], "write tools will be refused")

	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`
	modern := status(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"companies://server/status","_meta":`+meta+`}}`,
		modernHeaders("resources/read", "companies://server/status"))
	assert.Equal(t, true, modern["writes_put_to_person"])
	assert.Contains(t, modern["for_you"], "happens only if they accept")
}
