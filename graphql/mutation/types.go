package mutation

import "github.com/companyintel/mcp-server/graphql/mutation/internal/gen"

// The results of the mutations, as genqlient generated them from
// mutations.graphql and ../fragments.graphql. Aliases, so a value from a
// Writer is usable as is.
type (
	// CreateCollectionResult is the collection and whether this call made it.
	CreateCollectionResult = gen.CreateCollectionResult
	// AddToCollectionResult is the collection and what became of each id.
	AddToCollectionResult = gen.AddToCollectionResult
	// RemoveFromCollectionResult is the collection and what became of each id.
	RemoveFromCollectionResult = gen.RemoveFromCollectionResult
	// EmailDiscoveryJob is an email-discovery job and what it has found so far.
	EmailDiscoveryJob = gen.EmailDiscoveryJob
	// EmailDiscoveryStatus is where an EmailDiscoveryJob stands.
	EmailDiscoveryStatus = gen.EmailDiscoveryStatus
	// Collection is a user's named set of companies (fragment Collection).
	Collection = gen.Collection
	// Contact is a person's work email at a company (fragment Contact).
	Contact = gen.Contact
)

// The states of an EmailDiscoveryJob.
const (
	EmailDiscoveryStatusPending   = gen.EmailDiscoveryStatusPending
	EmailDiscoveryStatusRunning   = gen.EmailDiscoveryStatusRunning
	EmailDiscoveryStatusCompleted = gen.EmailDiscoveryStatusCompleted
	EmailDiscoveryStatusFailed    = gen.EmailDiscoveryStatusFailed
)
