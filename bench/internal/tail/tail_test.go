package tail

import "testing"

func TestBufferKeepsTheLastBytes(t *testing.T) {
	b := New(5)
	b.Write([]byte("abc"))
	b.Write([]byte("defg"))
	if got := b.String(); got != "cdefg" {
		t.Errorf("kept %q, want %q", got, "cdefg")
	}
}
