package read

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
)

// An export of companies with hostile names reads back, in a CSV parser, as
// plain text: no cell starts with a character a spreadsheet runs as a
// formula (issue 34).
func TestCSVExportCellsNeverStartAFormula(t *testing.T) {
	hostile := []string{"=HYPERLINK(\"https://evil.example\",\"x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "Acme, \"Inc\""}
	var b strings.Builder
	w := csv.NewWriter(&b)
	require.NoError(t, w.Write(csvHeader(tools.AllColumns)))
	for _, h := range hostile {
		c := tools.Company{ID: "cmp_1", Name: h, Domain: h, City: h, Description: h, Categories: []string{h}, CountryCode: "US"}
		require.NoError(t, w.Write(csvRow(tools.SummaryOf(c, tools.DetailSummary), tools.AllColumns)))
	}
	w.Flush()
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, len(hostile)+1)
	for i, row := range rows[1:] {
		want := hostile[i]
		if strings.ContainsAny(want[:1], "=+-@\t\r") {
			want = "'" + want
		}
		assert.Equal(t, want, row[1], "the name comes back whole, as text")
		for _, cell := range row {
			if cell != "" {
				assert.NotContains(t, "=+-@\t\r", cell[:1], "row %d starts a formula: %q", i, cell)
			}
		}
	}
}
