package authn

import "github.com/companyintel/mcp-server/appsynclocal"

// Identity is the backend's caller identity: the authenticators here return
// it, so they satisfy appsynclocal.Authenticator.
type Identity = appsynclocal.Identity

// The identity methods of the modes verified here.
const (
	MethodOIDC = appsynclocal.MethodOIDC
	MethodIAM  = appsynclocal.MethodIAM
)

// The backend's seam, checked at compile time.
var (
	_ appsynclocal.Authenticator = (*OIDCAuthenticator)(nil)
	_ appsynclocal.Authenticator = (*SigV4Authenticator)(nil)
)
