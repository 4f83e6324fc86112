package read

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// An export's file name takes only ASCII letters, digits and hyphens from
// the query: no path, no dot, no control character reaches it.
func TestExportFileNameTakesNothingButLettersAndDigitsFromTheQuery(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 15, 0, 0, time.UTC)
	for q, want := range map[string]string{
		"warehouse robotics":            "companies-warehouse-robotics-20261203-1015.csv",
		"../../etc/passwd":              "companies-etc-passwd-20261203-1015.csv",
		"a\\b\x00c\r\nd":                "companies-a-b-c-d-20261203-1015.csv",
		"":                              "companies-20261203-1015.csv",
		"日本 ..":                         "companies-20261203-1015.csv",
		strings.Repeat("abcdefghij", 9): "companies-abcdefghijabcdefghijabcdefghijabcdefghij-20261203-1015.csv",
	} {
		assert.Equal(t, want, FileName(q, at, ".csv"), q)
	}
}
