// An MCP client nobody here wrote, signing in as a person would: the
// official TypeScript SDK's Streamable HTTP client with its own default
// OAuth flow (protected resource metadata, authorization server metadata,
// dynamic client registration, PKCE), and a real headless Chromium that
// opens the authorization URL, where this script clicks Approve or Deny.
// Run by go test ./e2e (TestSDKClientSignsIn), which checks what it prints:
// one JSON object per line.
//
//   node signin.mjs <mcp-url> <approve|deny> <user> <state-file> [screenshot-dir]
//
// The state file keeps what the SDK asks a provider to keep (its client
// registration and tokens), so that a second run after a server restart
// starts from the first run's token. No scope is written here: the SDK
// asks for what the server's challenges name.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import puppeteer from "puppeteer-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [mcpURL, decision, user, stateFile, shotDir] = process.argv.slice(2);
const say = (event, fields = {}) => process.stdout.write(JSON.stringify({ event, ...fields }) + "\n");

// The loopback redirect (RFC 8252): a port of our own, any port.
const callbacks = [];
const waiters = [];
const callbackServer = createServer((req, res) => {
  const u = new URL(req.url, "http://127.0.0.1");
  if (u.pathname !== "/callback") {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": "text/html" }).end("<p>Signed in. You can close this window.</p>");
  const got = Object.fromEntries(u.searchParams);
  const w = waiters.shift();
  if (w) w(got);
  else callbacks.push(got);
});
await new Promise((r) => callbackServer.listen(0, "127.0.0.1", r));
const redirectUrl = `http://127.0.0.1:${callbackServer.address().port}/callback`;
const nextCallback = () => (callbacks.length ? Promise.resolve(callbacks.shift()) : new Promise((r) => waiters.push(r)));

// Debian's chromium, with the project's flags and a profile kept beside the
// state file: a second run is the same person's browser, still signed in
// at the issuer (its step-up page is for that user only).
const profile = `${stateFile}.chromium`;
// A launch is tried three times: on a loaded machine chromium has been seen
// to die at start (killed, no exit code) while other tests start theirs;
// that is the test machine, not the sign-in being tested.
async function launchChromium() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await puppeteer.launch({
        executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`],
      });
    } catch (err) {
      if (attempt >= 3) throw err;
      process.stderr.write(`chromium did not start (attempt ${attempt}), trying again: ${String(err).split("\n")[0]}\n`);
    }
  }
}
const browser = await launchChromium();

let state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
const keep = () => writeFileSync(stateFile, JSON.stringify(state));
let authorizations = 0;
let lastCallback = null;

// What a person does: read the page, pick the user, click.
async function signIn(authorizationUrl) {
  authorizations++;
  say("authorization_url", { url: authorizationUrl.toString(), scope: authorizationUrl.searchParams.get("scope") });
  const page = await browser.newPage();
  await page.goto(authorizationUrl.toString(), { waitUntil: "load" });
  say("page", { title: await page.title(), text: await page.$eval("main", (m) => m.innerText) });
  if (shotDir) {
    await page.setViewport({ width: 900, height: 900 });
    await page.screenshot({ path: join(shotDir, "consent-light.png"), fullPage: true });
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    await page.screenshot({ path: join(shotDir, "consent-dark.png"), fullPage: true });
    await page.setViewport({ width: 360, height: 800 });
    await page.screenshot({ path: join(shotDir, "consent-narrow-dark.png"), fullPage: true });
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
  }
  await page.click(`input[name="user"][value="${user}"]`);
  const arrived = nextCallback();
  await page.click(`button[name="decision"][value="${decision}"]`);
  lastCallback = await arrived;
  say("callback", { error: lastCallback.error ?? null, has_code: !!lastCallback.code, state_returned: lastCallback.state === state.oauthState });
  await page.close();
}

const provider = {
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() {
    return {
      client_name: "SDK e2e client",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  },
  state() { state.oauthState = randomBytes(16).toString("hex"); keep(); return state.oauthState; },
  clientInformation() { return state.client; },
  saveClientInformation(info) { state.client = info; keep(); say("client", { client_id: info.client_id }); },
  tokens() { return state.tokens; },
  saveTokens(t) { state.tokens = t; keep(); say("tokens", { scope: t.scope ?? null, access_token: t.access_token }); },
  redirectToAuthorization: signIn,
  saveCodeVerifier(v) { state.verifier = v; keep(); },
  codeVerifier() { return state.verifier; },
  invalidateCredentials(what) {
    say("invalidate", { what });
    if (what === "all" || what === "client") delete state.client;
    if (what === "all" || what === "tokens") delete state.tokens;
    keep();
  },
};

// Runs fn; when the SDK sent the person to sign in, finishes the flow with
// the code the browser brought back, and runs fn again on a new transport.
let transport;
let client;
async function connect() {
  transport = new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider });
  client = new Client({ name: "sdk-e2e", version: "1.0.0" });
  await client.connect(transport);
}
async function withSignIn(what, fn) {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    if (!lastCallback?.code) {
      say("refused", { during: what, error: lastCallback?.error ?? null, description: lastCallback?.error_description ?? null });
      return undefined;
    }
    const code = lastCallback.code;
    lastCallback = null;
    await transport.finishAuth(code);
    if (what === "connect") {
      await connect();
      return undefined;
    }
    return await fn();
  }
}

let exit = 0;
try {
  await withSignIn("connect", connect);
  if (decision === "approve") {
    const tools = await withSignIn("tools/list", () => client.listTools());
    say("tools", { names: tools.tools.map((t) => t.name), authorizations });
    const search = await client.callTool({ name: "search_companies", arguments: { query: "software", limit: 2 } });
    say("read", { isError: !!search.isError, text: search.content?.[0]?.text?.slice(0, 200) });
    const status = await client.readResource({ uri: "companies://server/status" });
    const st = JSON.parse(status.contents[0].text);
    say("status", { auth: st.auth, caller: st.caller ?? null });
    if (tools.tools.some((t) => t.name === "create_collection") && st.mutations?.enabled) {
      const before = authorizations;
      const created = await withSignIn("create_collection", () =>
        client.callTool({ name: "create_collection", arguments: { name: `signed in ${Date.now()}` } }));
      say("write", { isError: !!created?.isError, created: created?.structuredContent?.created ?? null, text: created?.content?.[0]?.text?.slice(0, 200), authorizations: authorizations - before });
    }
  }
} catch (err) {
  say("error", { message: String(err?.message ?? err), name: err?.name ?? null });
  exit = 1;
} finally {
  await client?.close().catch(() => {});
  await browser.close();
  callbackServer.close();
}
process.exit(exit);
