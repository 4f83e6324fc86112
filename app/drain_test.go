package app

import "testing"

func TestPeek(t *testing.T) {
	tests := []struct {
		msg            string
		hasID, request bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`, true, true},
		{`{"jsonrpc":"2.0","params":{"a":[1,{"id":9}]},"method":"tools/list","id":"x"}`, true, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, true},
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"id\":3}"}]}}`, true, false},
		{`{"jsonrpc":"2.0","result":{},"id":7}`, true, false},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, false, false},
		{`not json`, false, false},
	}
	for _, tt := range tests {
		hasID, request := peek([]byte(tt.msg))
		if hasID != tt.hasID || request != tt.request {
			t.Errorf("peek(%s) = %v, %v; want %v, %v", tt.msg, hasID, request, tt.hasID, tt.request)
		}
	}
}
