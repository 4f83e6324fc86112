package authn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The consent page: GET /authorize shows a person which application asks,
// for what, and as which demo user; the page's form posts the decision back
// to /authorize. Nothing is stored between the two: the checked request
// travels in the form, authenticated with a key derived from the signing
// key, and bound to this browser by a cookie (the CSRF defence: a form
// posted from anywhere else lacks the cookie or the matching token).

// consentTTL bounds how long a person may take to decide.
const consentTTL = 10 * time.Minute

// maxConsentBody bounds the decision's form.
const maxConsentBody = 16 << 10

// consentCookie holds the browser's nonce the CSRF token is bound to.
const consentCookie = "authorize_csrf"

// consentRequest is an authorization request that passed every check,
// waiting for the person's decision.
type consentRequest struct {
	ClientID  string   `json:"c"`
	Redirect  string   `json:"r"`
	State     string   `json:"s,omitempty"`
	Challenge string   `json:"p"`
	Scopes    []string `json:"sc"`
	Resource  string   `json:"res"`
	User      string   `json:"u,omitempty"` // login_hint
	Expiry    int64    `json:"e"`
	// Nonce makes the form single-use: it is spent on the first post.
	Nonce string `json:"n"`
	// Session is the user the page was for: the one this browser was
	// signed in as, or the one the client's step-up is for (StepUp). Then
	// only that user may approve.
	Session string `json:"su,omitempty"`
	StepUp  bool   `json:"st,omitempty"`
}

// boundUser is who a consent page is for, if anyone: the user this browser
// is signed in as; else, for a client that was just refused for want of
// scopes (a step-up), the user it was signed in as.
func (i *Issuer) boundUser(r *http.Request, clientID string) bound {
	if u := i.sessionUser(r); u != "" {
		return bound{user: u}
	}
	if u := i.stepUpUser(clientID); u != "" {
		return bound{user: u, stepUp: true}
	}
	return bound{}
}

// bound is the user a consent page is for, and why.
type bound struct {
	user   string
	stepUp bool
}

// consentMAC is the CSRF token: the request bound to the browser's nonce.
func (i *Issuer) consentMAC(nonce, blob string) string {
	m := hmac.New(sha256.New, i.consentKey)
	m.Write([]byte(nonce))
	m.Write([]byte{0})
	m.Write([]byte(blob))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// scopeWords says what a scope lets an application do, in plain words.
var scopeWords = map[string]string{
	ScopeRead:  "Read company profiles and search results, and see your lists",
	ScopeWrite: "Change your lists (create them, add companies) and start email discovery",
}

type consentPage struct {
	SignedIn    string // the signed-in user the page is for, or ""
	StepUp      bool   // SignedIn is the user the application's step-up is for
	Hinted      string // another user the application named (login_hint)
	Notice      string
	Action      string
	AppName     string
	Named       bool
	RedirectTo  string
	Local       bool
	Permissions []string
	Writes      bool
	Users       []consentUser
	Request     string
	CSRF        string
}

type consentUser struct {
	Name    string
	Checked bool
}

// showConsent renders the page for a checked request, for the user this
// browser is signed in as (session), or, with none, with the users to pick
// from: none picked unless the application named one (login_hint).
func (i *Issuer) showConsent(w http.ResponseWriter, md clientMetadata, req consentRequest, b bound, notice string) {
	session := b.user
	formNonce, err := randomToken()
	nonce, err2 := randomToken()
	if err != nil || err2 != nil {
		i.pageError(w, http.StatusServiceUnavailable, "The sign-in page cannot be shown right now. Try again in a moment.")
		return
	}
	req.Nonce, req.Session, req.StepUp = formNonce, session, b.stepUp
	blob, _ := json.Marshal(req)
	enc := base64.RawURLEncoding.EncodeToString(blob)
	http.SetCookie(w, &http.Cookie{
		Name: consentCookie, Value: nonce, Path: i.cookiePath(), MaxAge: int(consentTTL.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(i.url, "https://"), SameSite: http.SameSiteStrictMode,
	})
	ru, _ := url.Parse(req.Redirect)
	p := consentPage{
		SignedIn:   session,
		StepUp:     b.stepUp,
		Notice:     notice,
		Action:     i.path + "/authorize",
		AppName:    md.ClientName,
		Named:      md.ClientName != "",
		RedirectTo: ru.Host,
		Local:      isLoopbackHost(ru.Hostname()),
		Request:    enc,
		CSRF:       i.consentMAC(nonce, enc),
		Writes:     slices.Contains(req.Scopes, ScopeWrite),
	}
	if !p.Named {
		p.AppName = "An unnamed application"
	}
	for _, s := range req.Scopes {
		if words, ok := scopeWords[s]; ok {
			p.Permissions = append(p.Permissions, words)
		} else {
			p.Permissions = append(p.Permissions, "Use the “"+s+"” permission")
		}
	}
	if session != "" {
		p.Users = []consentUser{{Name: session, Checked: true}}
		if req.User != "" && req.User != session {
			p.Hinted = req.User
		}
	} else {
		for _, u := range i.userList {
			p.Users = append(p.Users, consentUser{Name: u, Checked: u == req.User})
		}
	}
	pageHeaders(w)
	w.WriteHeader(http.StatusOK)
	_ = consentTemplate.Execute(w, p)
}

func (i *Issuer) cookiePath() string { return i.path + "/authorize" }

// serveDecision is the form's POST: the person's Approve or Deny.
func (i *Issuer) serveDecision(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxConsentBody)
	if err := r.ParseForm(); err != nil {
		i.pageError(w, http.StatusBadRequest, "The sign-in form could not be read. Start again from your application.")
		return
	}
	enc, token := r.PostForm.Get("request"), r.PostForm.Get("csrf_token")
	c, err := r.Cookie(consentCookie)
	if err != nil || token == "" || enc == "" || !hmac.Equal([]byte(token), []byte(i.consentMAC(c.Value, enc))) {
		i.pageError(w, http.StatusForbidden, "This sign-in form did not come from this server's own page in this browser (its CSRF token is missing or does not match), so nothing was approved. Start again from your application.")
		return
	}
	var req consentRequest
	blob, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || json.Unmarshal(blob, &req) != nil {
		i.pageError(w, http.StatusBadRequest, "The sign-in form could not be read. Start again from your application.")
		return
	}
	if !i.now().Before(time.Unix(req.Expiry, 0)) {
		i.pageError(w, http.StatusBadRequest, "This sign-in page has expired. Start again from your application.")
		return
	}
	if req.Nonce == "" {
		i.pageError(w, http.StatusBadRequest, "The sign-in form could not be read. Start again from your application.")
		return
	}
	// The form is spent on the server: a second post of it, from this
	// browser or any other, for this user or another, is refused.
	switch err := i.spent.spend(req.Nonce, time.Unix(req.Expiry, 0), i.now()); {
	case errors.Is(err, errFormSpent):
		i.pageError(w, http.StatusForbidden, "This sign-in form was already used: each form can be sent once, so nothing more was approved. Start again from your application.")
		return
	case err != nil:
		i.pageError(w, http.StatusServiceUnavailable, "Too many sign-ins are in progress on this server. Try again in a few minutes.")
		return
	}
	md, err := i.lookupClient(r.Context(), req.ClientID)
	if err != nil || !md.allowsRedirect(req.Redirect) {
		i.pageError(w, http.StatusBadRequest, "The application that asked is no longer registered here. Start again from your application.")
		return
	}
	decision := r.PostForm.Get("decision")
	if decision == "signout" {
		// Signing out shows the same request again, to choose anew.
		i.clearSession(w)
		notice := "You signed out. Choose who signs in."
		if req.Session != "" {
			notice = "You signed out as " + req.Session + ". Choose who signs in."
		}
		if req.StepUp {
			i.endStepUp(req.ClientID)
		}
		i.showConsent(w, md, req, bound{}, notice)
		return
	}
	// The form is spent: a second post of it (the back button) finds no
	// cookie.
	http.SetCookie(w, &http.Cookie{Name: consentCookie, Value: "", Path: i.cookiePath(), MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	back := i.redirecter(w, r, req.Redirect, req.State)
	switch decision {
	case "deny":
		back(url.Values{"error": {"access_denied"}, "error_description": {"the user denied the request"}})
		return
	case "approve":
	default:
		i.pageError(w, http.StatusBadRequest, "Choose Approve or Deny.")
		return
	}
	user := r.PostForm.Get("user")
	switch {
	case req.Session != "" && user != req.Session:
		i.pageError(w, http.StatusBadRequest, "You are signed in as "+req.Session+", so this page could approve only as "+req.Session+". To approve as someone else, sign out first (the page's Sign out button), then choose. Start again from your application.")
		return
	case req.Session != "" && !req.StepUp && i.sessionUser(r) != req.Session:
		i.pageError(w, http.StatusBadRequest, "Who is signed in in this browser changed since this page was shown, so nothing was approved. Start again from your application.")
		return
	case !slices.Contains(i.userList, user):
		i.pageError(w, http.StatusBadRequest, "Choose one of the listed users.")
		return
	}
	code, err := i.newCode(codeGrant{
		clientID: req.ClientID, redirectURI: req.Redirect, challenge: req.Challenge,
		subject: user, resource: req.Resource, scopes: req.Scopes,
		expiry: i.now().Add(codeTTL),
	})
	if err != nil {
		back(url.Values{"error": {"temporarily_unavailable"}, "error_description": {err.Error()}})
		return
	}
	if req.StepUp {
		i.endStepUp(req.ClientID)
	}
	i.setSession(w, user)
	back(url.Values{"code": {code}})
}

// redirecter returns the function that sends the browser back to a
// redirect URI already checked against the client's, with iss (RFC 9207)
// and the client's state.
func (i *Issuer) redirecter(w http.ResponseWriter, r *http.Request, redirect, state string) func(url.Values) {
	return func(params url.Values) {
		params.Set("iss", i.url)
		if state != "" {
			params.Set("state", state)
		}
		u, _ := url.Parse(redirect)
		merged := u.Query()
		for k, v := range params {
			merged[k] = v
		}
		u.RawQuery = merged.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	}
}

// pageHeaders keep the page from being framed (a consent page under another
// site's buttons), cached, or leaking its URL.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	// same-origin, not no-referrer: the form's post then carries the
	// page's own Origin (no-referrer makes it "null"), and nothing leaks
	// to the application the browser is sent back to.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
}

// pageError answers a person: an HTML page for a browser, the sentence
// alone for anything else.
func (i *Issuer) pageError(w http.ResponseWriter, status int, msg string) {
	pageHeaders(w)
	w.WriteHeader(status)
	_ = errorTemplate.Execute(w, struct{ Message string }{msg})
}

// pageErrorFor answers in place for a request whose redirect cannot be
// trusted: HTML for a browser, plain text for a program.
func (i *Issuer) pageErrorFor(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		i.pageError(w, status, msg)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, msg, status)
}

const pageStyle = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #ffffff; --text: #1c1e21; --muted: #5b6270; --line: #dde1e6;
  --accent: #2456d8; --accent-text: #ffffff; --warn-bg: #fff6e0; --warn-text: #6b4a00; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #111317; --card: #1b1e24; --text: #eceef1; --muted: #a4abb8; --line: #323742;
    --accent: #6c93ff; --accent-text: #0b1020; --warn-bg: #3a2e12; --warn-text: #f4d58a; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 28rem; margin: 2.5rem auto; padding: 0 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; }
.brand { display: flex; align-items: center; gap: .6rem; color: var(--muted); font-size: .9rem; margin-bottom: 1rem; }
.logo { width: 28px; height: 28px; border-radius: 7px; background: var(--accent); color: var(--accent-text); display: grid; place-items: center; font-weight: 700; }
h1 { font-size: 1.3rem; line-height: 1.3; margin: 0 0 .4rem; overflow-wrap: anywhere; }
p { margin: .4rem 0; }
.muted { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
h2 { font-size: .95rem; margin: 1.3rem 0 .5rem; }
ul.perms { margin: 0; padding: 0; list-style: none; }
ul.perms li { padding: .5rem 0 .5rem 1.6rem; position: relative; border-top: 1px solid var(--line); }
ul.perms li:first-child { border-top: 0; }
ul.perms li::before { content: "✓"; position: absolute; left: .2rem; color: var(--accent); font-weight: 700; }
fieldset { border: 0; margin: 1.2rem 0 0; padding: 0; }
legend { font-weight: 600; font-size: .95rem; margin: 0 0 .5rem; padding: 0; }
label.user { display: flex; align-items: center; gap: .6rem; padding: .55rem .7rem; border: 1px solid var(--line); border-radius: 8px; margin-bottom: .4rem; cursor: pointer; }
label.user input { accent-color: var(--accent); }
.note { background: var(--warn-bg); color: var(--warn-text); border-radius: 8px; padding: .6rem .8rem; font-size: .9rem; margin-top: 1rem; }
.actions { display: flex; gap: .7rem; margin-top: 1.4rem; flex-wrap: wrap; }
button { flex: 1 1 8rem; font: inherit; font-weight: 600; padding: .7rem 1rem; border-radius: 8px; cursor: pointer; border: 1px solid var(--line); background: transparent; color: var(--text); }
button.approve { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
footer { text-align: center; margin-top: 1rem; }
`

var consentTemplate = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to Company Intelligence</title><style>` + pageStyle + `</style></head>
<body><main>
<div class="card">
<div class="brand"><span class="logo" aria-hidden="true">CI</span><span>Company Intelligence · demo sign-in</span></div>
<h1>{{if .Named}}“{{.AppName}}”{{else}}{{.AppName}}{{end}} wants to use your account</h1>
<p class="muted">It will receive access at <strong>{{.RedirectTo}}</strong>{{if .Local}}, a program on this computer{{end}}.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.Request}}">
<input type="hidden" name="csrf_token" value="{{.CSRF}}">
<h2>It will be able to</h2>
<ul class="perms">{{range .Permissions}}<li>{{.}}</li>{{end}}</ul>
{{if .Notice}}<p class="note">{{.Notice}}</p>{{end}}
{{if .SignedIn}}<fieldset><legend>Signed in as</legend>
{{range .Users}}<label class="user"><input type="radio" name="user" value="{{.Name}}" checked> {{.Name}}</label>
{{end}}</fieldset>
<p class="muted">{{if .StepUp}}The application is signed in as {{.SignedIn}} and asks for more. {{end}}{{if .Hinted}}The application asked for {{.Hinted}}. {{end}}Not {{.SignedIn}}? Sign out first, then choose who signs in.</p>
<div class="actions"><button type="submit" name="decision" value="signout" formnovalidate>Sign out</button></div>
{{else}}<fieldset><legend>Sign in as</legend>
{{range .Users}}<label class="user"><input type="radio" name="user" value="{{.Name}}" required{{if .Checked}} checked{{end}}> {{.Name}}</label>
{{end}}</fieldset>{{end}}
{{if .Writes}}<p class="note">This includes changing data in your name. Approve only if you started this from an application you trust.</p>{{end}}
<div class="actions">
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
</div>
</form>
</div>
<footer class="muted">Demo users of this server's built-in sign-in. A team's own identity provider replaces this page.</footer>
</main></body></html>
`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in stopped</title><style>` + pageStyle + `</style></head>
<body><main><div class="card">
<div class="brand"><span class="logo" aria-hidden="true">CI</span><span>Company Intelligence · demo sign-in</span></div>
<h1>Sign-in stopped</h1>
<p>{{.Message}}</p>
</div></main></body></html>
`))
