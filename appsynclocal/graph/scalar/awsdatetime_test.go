package scalar_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/graph/scalar"
)

func TestAWSDateTimeIsWrittenInUTCWithMilliseconds(t *testing.T) {
	var b bytes.Buffer
	paris := time.FixedZone("CET", 3600)
	scalar.MarshalAWSDateTime(time.Date(2026, 11, 30, 3, 0, 0, 123456789, paris)).MarshalGQL(&b)
	assert.Equal(t, `"2026-11-30T02:00:00.123Z"`, b.String())
}

func TestAWSDateTimeReadsRFC3339(t *testing.T) {
	for _, s := range []string{"2026-11-30T02:00:00.000Z", "2026-11-30T02:00:00Z", "2026-11-30T03:00:00+01:00"} {
		got, err := scalar.UnmarshalAWSDateTime(s)
		require.NoError(t, err, s)
		assert.True(t, got.Equal(time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)), s)
	}
	for _, bad := range []any{"yesterday", 12, nil} {
		_, err := scalar.UnmarshalAWSDateTime(bad)
		assert.Error(t, err)
	}
}
