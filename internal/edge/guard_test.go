package edge

import "testing"

func TestHostNameNeedsANumericPortOrNone(t *testing.T) {
	for in, want := range map[string]string{
		"localhost":        "localhost",
		"localhost:8080":   "localhost",
		"[::1]:80":         "::1",
		"[::1]":            "::1",
		"mcp.example.com":  "mcp.example.com",
		"localhost:":       "",
		"localhost:http":   "",
		"localhost:99999":  "",
		"127.0.0.1:80x":    "",
		"a:b:c":            "",
		":8080":            "",
		"":                 "",
		"localhost:-1":     "",
		"localhost:+80":    "",
		"localhost:080000": "",
	} {
		got, ok := hostName(in)
		if got != want || ok != (want != "") {
			t.Errorf("hostName(%q) = %q, %v; want %q, %v", in, got, ok, want, want != "")
		}
	}
}
