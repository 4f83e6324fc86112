package store

// Limit is the page-size rule of one operation.
type Limit struct {
	// Default applies when no limit is given.
	Default int
	// Max is the largest limit accepted; the smallest is 1.
	Max int
}

// The operations' page-size rules, as schema.graphql documents them.
var (
	SearchLimit      = Limit{Default: 20, Max: 100}
	AISearchLimit    = Limit{Default: 10, Max: 50}
	CollectionsLimit = Limit{Default: 20, Max: 100}
)

// Resolve returns the page size for a requested limit (nil: the default). A
// limit out of range is an *InvalidError; it is not clamped, because a caller
// asking for 500 and silently getting 100 would think it had everything.
func (l Limit) Resolve(v *int) (int, error) {
	if v == nil {
		return l.Default, nil
	}
	if *v < 1 || *v > l.Max {
		return 0, invalidf("limit must be between 1 and %d, got %d", l.Max, *v)
	}
	return *v, nil
}
