package dataset_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

var update = flag.Bool("update", false, "rewrite testdata/sample.txt")

// sampleFile is the reviewed sample of the default data set that docs/operator.md
// links: `go run ./cmd/appsync-local sample` prints it.
const sampleFile = "testdata/sample.txt"

// TestSampleFileIsTheDefaultDataSets keeps the committed sample what the
// generator makes, so the docs never show companies the demo does not
// hold. After a generator change, rewrite it with -update and read it.
func TestSampleFileIsTheDefaultDataSets(t *testing.T) {
	g, err := dataset.New(appsynclocal.DefaultSeed, appsynclocal.DefaultCompanies)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, dataset.WriteProfiles(&b, g.Sample(50)))
	if *update {
		require.NoError(t, os.WriteFile(sampleFile, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(sampleFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String(), "the sample is stale: go test ./appsynclocal/dataset -run TestSampleFile -update, then read it")
}

func TestSampleIsFixedDistinctAndInIDOrder(t *testing.T) {
	g, err := dataset.New(7, 20_000)
	require.NoError(t, err)
	a, b := g.Sample(50), g.Sample(50)
	require.Len(t, a, 50)
	assert.Equal(t, a, b)
	for i := 1; i < len(a); i++ {
		assert.Less(t, a[i-1].Num, a[i].Num)
	}
	other, _ := dataset.New(8, 20_000)
	assert.NotEqual(t, a[0].Num, other.Sample(50)[0].Num, "another seed picks other companies")
	small, _ := dataset.New(7, 10)
	assert.Len(t, small.Sample(50), 10, "no more than the data set holds")
}
