// Package scalar marshals AppSync's scalars for the gqlgen executor.
package scalar

import (
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// awsDateTimeLayout is how AppSync writes AWSDateTime: UTC, milliseconds, Z.
const awsDateTimeLayout = "2006-01-02T15:04:05.000Z"

// MarshalAWSDateTime writes t as AppSync does, e.g. "2026-11-30T02:00:00.000Z".
func MarshalAWSDateTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		io.WriteString(w, strconv.Quote(t.UTC().Format(awsDateTimeLayout)))
	})
}

// UnmarshalAWSDateTime reads an RFC 3339 date-time, with or without
// fractional seconds, as AppSync accepts.
func UnmarshalAWSDateTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, errors.New("AWSDateTime must be a string such as 2026-11-30T02:00:00.000Z")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, errors.New("AWSDateTime must be an RFC 3339 date-time such as 2026-11-30T02:00:00.000Z")
	}
	return t, nil
}
