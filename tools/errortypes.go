package tools

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// AppSync's errorType is free text: AppSync itself says "Unauthorized" for a
// field its auth mode may not read and "UnauthorizedException" for refused
// credentials, Lambda and DynamoDB resolvers prefix their own ("Lambda:Unhandled",
// "DynamoDB:ConditionalCheckFailedException"), and $util.error lets a
// resolver say anything ("NotFound", "ValidationError", "400"). A class is
// therefore chosen by family, from the spelling's core, not by one backend's
// spelling; an operator maps a resolver's own types with --error-class.

// typeFamily is what an errorType says about a failure.
type typeFamily int

const (
	familyUnknown     typeFamily = iota
	familyCredentials            // the credentials were refused or expired
	familyPermission             // valid credentials that may not do this
	familyForbidden
	familyNotFound
	familyInvalid
	familyThrottled
	familyTimeout
	familyUnavailable // the service is down for now
	familyResolver    // a data source or template failed: "Lambda:…", "MappingTemplate"
)

// credentialCores are errorTypes (as core, see core) that mean the request's
// credentials themselves were refused: the operator must fix them.
var credentialCores = map[string]bool{
	"unauthenticated": true, "notauthenticated": true, "authentication": true, "authenticationfailed": true,
	"expiredtoken": true, "tokenexpired": true, "invalidtoken": true, "invalidsignature": true,
	"signaturedoesnotmatch": true, "incompletesignature": true, "unrecognizedclient": true,
	"invalidclienttokenid": true, "missingauthenticationtoken": true, "invalidapikey": true,
}

// permissionCores are errorTypes that refuse an operation to credentials that
// are otherwise valid.
var permissionCores = map[string]bool{
	"unauthorized": true, "notauthorized": true, "accessdenied": true, "permissiondenied": true,
	"insufficientpermissions": true, "notpermitted": true, "unauthorizedoperation": true,
}

// invalidCores are errorTypes that refuse the request's arguments.
var invalidCores = map[string]bool{
	"badrequest": true, "validation": true, "baduserinput": true, "userinput": true,
	"illegalargument": true, "malformedinput": true, "constraintviolation": true,
	"unprocessableentity": true, "wrongtype": true,
}

// core reduces a spelling to its family key: lower case, letters and digits
// only, without a trailing "exception", "error" or "fault". So
// "UnauthorizedException", "Unauthorized" and "UNAUTHORIZED_ERROR" agree.
func core(errorType string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(errorType) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	c := b.String()
	for _, suffix := range []string{"exception", "error", "fault"} {
		if t, ok := strings.CutSuffix(c, suffix); ok && t != "" {
			return t
		}
	}
	return c
}

// familyOf reads an errorType. A "Source:Type" spelling is a resolver's data
// source failing (Lambda, DynamoDB, RDS, HTTP, OpenSearch…), whatever the
// type after the colon: it is the backend's failure, not the caller's, and
// its words are kept. retryable marks such a failure that is a throttle.
func familyOf(errorType string) (f typeFamily, retryable bool) {
	t := strings.TrimSpace(errorType)
	if t == "" {
		return familyUnknown, false
	}
	if _, detail, ok := strings.Cut(t, ":"); ok {
		inner, _ := familyOf(detail)
		return familyResolver, inner == familyThrottled || inner == familyTimeout || inner == familyUnavailable
	}
	if n, err := strconv.Atoi(t); err == nil {
		return statusFamily(n), false
	}
	c := core(t)
	switch {
	case c == "mappingtemplate" || c == "templatetransformation" || c == "resolver":
		return familyResolver, false
	case credentialCores[c]:
		return familyCredentials, false
	case permissionCores[c]:
		return familyPermission, false
	case c == "forbidden":
		return familyForbidden, false
	case strings.HasSuffix(c, "notfound") || strings.HasPrefix(c, "nosuch") || c == "doesnotexist":
		return familyNotFound, false
	case strings.Contains(c, "throttl") || strings.Contains(c, "toomanyrequests") || strings.Contains(c, "limitexceeded") ||
		strings.Contains(c, "ratelimit") || strings.Contains(c, "ratexceeded") || strings.Contains(c, "provisionedthroughputexceeded") ||
		c == "slowdown":
		return familyThrottled, false
	case invalidCores[c] || strings.HasPrefix(c, "invalid") || strings.HasPrefix(c, "malformed"):
		return familyInvalid, false
	case strings.Contains(c, "timeout") || strings.Contains(c, "timedout"):
		return familyTimeout, false
	case c == "serviceunavailable" || c == "unavailable":
		return familyUnavailable, false
	}
	return familyUnknown, false
}

// statusFamily reads an HTTP status used as an errorType, as resolvers
// written against REST back ends do ($util.appendError(body, "400")).
func statusFamily(n int) typeFamily {
	switch {
	case n == 400 || n == 422:
		return familyInvalid
	case n == 401:
		return familyCredentials
	case n == 403:
		return familyPermission
	case n == 404:
		return familyNotFound
	case n == 429:
		return familyThrottled
	case n == 504:
		return familyTimeout
	case n == 503:
		return familyUnavailable
	}
	return familyUnknown
}

// ErrorClasses maps errorTypes an operator knows (a resolver's own
// $util.error types) to classes, ahead of the families. A type ending in "*"
// matches every type with that prefix, e.g. "DynamoDB:*". Matching ignores case.
type ErrorClasses struct {
	exact    map[string]Class
	prefixes []classPrefix // longest first
}

type classPrefix struct {
	prefix string
	class  Class
}

// mappableClasses are the classes an operator may assign: the backend's own
// failures, never the server's local refusals.
var mappableClasses = []Class{InvalidArguments, RateLimited, Unauthorized, Forbidden, NotFound, BackendTimeout, BackendUnreachable, BackendError}

// ParseErrorClasses reads TYPE=CLASS specs (from --error-class, or
// ERROR_CLASSES split on commas). An unknown class, an empty type or a type
// mapped twice to different classes is an error naming the spec and the fix.
func ParseErrorClasses(specs []string) (ErrorClasses, error) {
	ec := ErrorClasses{exact: map[string]Class{}}
	seen := map[string]Class{}
	for _, spec := range specs {
		typ, cls, ok := strings.Cut(spec, "=")
		typ, cls = strings.TrimSpace(typ), strings.TrimSpace(cls)
		if !ok || typ == "" || typ == "*" {
			return ErrorClasses{}, fmt.Errorf("%q: expected TYPE=CLASS, e.g. OrderNotFound=not_found or DynamoDB:*=backend_error", spec)
		}
		class, known := Class(cls), false
		for _, c := range mappableClasses {
			known = known || c == class
		}
		if !known {
			names := make([]string, len(mappableClasses))
			for i, c := range mappableClasses {
				names[i] = string(c)
			}
			return ErrorClasses{}, fmt.Errorf("%q: unknown class %q; use one of %s", spec, cls, strings.Join(names, ", "))
		}
		key := strings.ToLower(typ)
		if prev, dup := seen[key]; dup && prev != class {
			return ErrorClasses{}, fmt.Errorf("%q: %s is already mapped to %s", spec, typ, prev)
		}
		seen[key] = class
		if p, isPrefix := strings.CutSuffix(key, "*"); isPrefix {
			ec.prefixes = append(ec.prefixes, classPrefix{prefix: p, class: class})
		} else {
			ec.exact[key] = class
		}
	}
	sort.SliceStable(ec.prefixes, func(i, j int) bool { return len(ec.prefixes[i].prefix) > len(ec.prefixes[j].prefix) })
	return ec, nil
}

// lookup returns the operator's class for errorType, if any.
func (ec ErrorClasses) lookup(errorType string) (Class, bool) {
	if errorType == "" {
		return "", false
	}
	key := strings.ToLower(strings.TrimSpace(errorType))
	if c, ok := ec.exact[key]; ok {
		return c, true
	}
	for _, p := range ec.prefixes {
		if strings.HasPrefix(key, p.prefix) {
			return p.class, true
		}
	}
	return "", false
}

// Len is the number of mappings, for the start-up log.
func (ec ErrorClasses) Len() int { return len(ec.exact) + len(ec.prefixes) }
