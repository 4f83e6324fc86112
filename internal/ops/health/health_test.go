package health

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestReadinessDegradesOnlyOnChecksThatSaySo(t *testing.T) {
	var backendErr, storeErr error
	r := NewReadiness(time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)),
		Check{Name: "backend", Run: func(context.Context) error { return backendErr }},
	)
	r.Add(Check{Name: "rate_limit_store", Run: func(context.Context) error { return storeErr }, Degrades: true})
	probe := func() (int, string) {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/readyz", nil))
		return w.Code, w.Body.String()
	}

	code, body := probe()
	assert.Equal(t, http.StatusServiceUnavailable, code, "nothing has run yet")
	assert.JSONEq(t, `{"status":"not ready","checks":{"backend":"pending","rate_limit_store":"pending"}}`, body)

	r.Refresh(context.Background())
	code, body = probe()
	assert.Equal(t, http.StatusOK, code)
	assert.JSONEq(t, `{"status":"ready","checks":{"backend":"ok","rate_limit_store":"ok"}}`, body)

	storeErr = errors.New("connection refused")
	r.Refresh(context.Background())
	code, body = probe()
	assert.Equal(t, http.StatusOK, code, "a degrading check keeps the replica in rotation")
	assert.JSONEq(t, `{"status":"degraded","checks":{"backend":"ok","rate_limit_store":"failing"}}`, body)

	backendErr = errors.New("no route")
	r.Refresh(context.Background())
	code, body = probe()
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.JSONEq(t, `{"status":"not ready","checks":{"backend":"failing","rate_limit_store":"failing"}}`, body)
	assert.NotContains(t, body, "no route", "an error's text never reaches the probe")
}
