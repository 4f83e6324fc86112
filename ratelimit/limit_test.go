package ratelimit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit"
)

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in   string
		want ratelimit.Limit
	}{
		{"5/m", ratelimit.Limit{Count: 5, Period: time.Minute}},
		{"5/min", ratelimit.Limit{Count: 5, Period: time.Minute}},
		{"5/mins", ratelimit.Limit{Count: 5, Period: time.Minute}},
		{"5/minute", ratelimit.Limit{Count: 5, Period: time.Minute}},
		{" 5 / M ", ratelimit.Limit{Count: 5, Period: time.Minute}},
		{"10/h", ratelimit.Limit{Count: 10, Period: time.Hour}},
		{"10/hr", ratelimit.Limit{Count: 10, Period: time.Hour}},
		{"10/hours", ratelimit.Limit{Count: 10, Period: time.Hour}},
		{"120/m", ratelimit.Limit{Count: 120, Period: time.Minute}},
		{"2/s", ratelimit.Limit{Count: 2, Period: time.Second}},
		{"2/sec", ratelimit.Limit{Count: 2, Period: time.Second}},
		{"3/d", ratelimit.Limit{Count: 3, Period: 24 * time.Hour}},
		{"3/days", ratelimit.Limit{Count: 3, Period: 24 * time.Hour}},
		{"100/1h", ratelimit.Limit{Count: 100, Period: time.Hour}},
		{"5/30s", ratelimit.Limit{Count: 5, Period: 30 * time.Second}},
		{"7/1h30m", ratelimit.Limit{Count: 7, Period: 90 * time.Minute}},
		{"0", ratelimit.Limit{}},
		{"off", ratelimit.Limit{}},
		{"OFF", ratelimit.Limit{}},
		{"none", ratelimit.Limit{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ratelimit.ParseLimit(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseLimitErrors(t *testing.T) {
	tests := []struct {
		in, why string
	}{
		{"", ""},
		{"5", ""},
		{"5/", "period"},
		{"/m", "count"},
		{"x/m", "count"},
		{"1.5/m", "count"},
		{"-1/m", "count"},
		{"0/m", "count"},
		{"5/x", "period"},
		{"5/ms", "period"},
		{"5/0s", "period"},
		{"5/-1h", "period"},
		{"5 per minute", ""},
		{"unlimited", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ratelimit.ParseLimit(tt.in)
			require.Error(t, err)
			msg := err.Error()
			assert.Contains(t, msg, `"`+tt.in+`"`, "names the bad limit")
			assert.Contains(t, msg, "5/m, 10/h, 2/s or 100/1h", "lists the accepted forms")
			assert.Contains(t, msg, "0, off or none")
			assert.Contains(t, msg, tt.why)
		})
	}
}

func TestLimitString(t *testing.T) {
	tests := []struct {
		lim  ratelimit.Limit
		want string
	}{
		{ratelimit.Limit{Count: 5, Period: time.Minute}, "5 per minute"},
		{ratelimit.Limit{Count: 10, Period: time.Hour}, "10 per hour"},
		{ratelimit.Limit{Count: 2, Period: time.Second}, "2 per second"},
		{ratelimit.Limit{Count: 1, Period: 24 * time.Hour}, "1 per day"},
		{ratelimit.Limit{Count: 5, Period: 2 * time.Hour}, "5 per 2 hours"},
		{ratelimit.Limit{Count: 5, Period: 90 * time.Second}, "5 per 90 seconds"},
		{ratelimit.Limit{Count: 5, Period: 1500 * time.Millisecond}, "5 per 1.5s"},
		{ratelimit.Limit{}, "unlimited"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.lim.String())
		})
	}
}

func TestParseLimitRoundTrip(t *testing.T) {
	for _, in := range []string{"5/m", "10/h", "120/m", "2/s", "100/1h", "3/d"} {
		lim, err := ratelimit.ParseLimit(in)
		require.NoError(t, err)
		assert.NotContains(t, lim.String(), "/", "String is for people, not a spec: %s", in)
		assert.False(t, lim.Unlimited())
	}
	assert.True(t, ratelimit.Limit{}.Unlimited())
}
