package authn

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSignatureKnownAnswer checks the hand-written signer against the
// "get-vanilla" case of AWS's published Signature Version 4 test suite, so
// the verifier is not only checked against the SDK it is tested with.
func TestSignatureKnownAnswer(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "https://example.amazonaws.com/", nil)
	r.Header.Set("X-Amz-Date", "20150830T123600Z")
	s := scope{date: "20150830", region: "us-east-1", service: "service", terminator: "aws4_request"}
	got := signature("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", r, nil, "20150830T123600Z", s, []string{"host", "x-amz-date"})
	assert.Equal(t, "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31", got)
}

func TestCanonicalQuerySortsAfterEncoding(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "https://example.amazonaws.com/?a=3&a-b=2&x=a%2Fb&x=a-b&sp=a+b", nil)
	assert.Equal(t, "a=3&a-b=2&sp=a%20b&x=a%2Fb&x=a-b", canonicalQuery(r.URL.Query()))
}
