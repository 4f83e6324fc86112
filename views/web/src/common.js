// Shared by the three views: the connection to the host, theming, and a DOM
// builder that only ever writes text, never markup, so a company name such as
// "<img src=x onerror=...>" is shown as those characters.
import { App, applyDocumentTheme, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import { clean } from "./clean.js";

// el builds an element. attrs are set as attributes (on* handlers are
// functions, added as listeners); children are nodes or strings, and strings
// become text nodes. Every string shown, attribute or text, first passes the
// server's rule for untrusted text (clean.js): nothing invisible is shown.
export function el(tag, attrs, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : clean(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    n.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(cleanLines(c)) : c);
  }
  return n;
}

// cleanLines cleans each line of s and keeps its line breaks (a text
// answer shown whole is lines of the server's; a value inside it already
// had its own breaks made spaces by the server). A text node's line break
// is no markup: elements, not lines, hold the fields of a view.
function cleanLines(s) {
  return String(s).split("\n").map(clean).join("\n");
}

// show replaces root's content with nodes, leaving out the absent ones.
export function show(root, ...nodes) {
  root.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
}

// num formats a count for people: 12,345.
export function num(n) {
  return typeof n === "number" ? n.toLocaleString("en-US") : "";
}

// refusal turns a failed tool result into plain words: what happened and what
// the person can do, then the server's own message for the details.
export function refusal(result) {
  const meta = (result && result._meta && result._meta["io.companyintel/error"]) || {};
  const detail = meta.message || textOf(result) || "The server gave no reason.";
  const plain = {
    mutations_disabled: "This server does not allow changes: writes are switched off by its operator. Nothing was changed.",
    forbidden: "You are not allowed to make this change. Nothing was changed.",
    unauthorized: "You are signed out or your access has expired. Sign in again, then retry.",
    rate_limited: "Too many requests for now." + (meta.retry_after_s ? ` Try again in ${meta.retry_after_s} seconds.` : " Try again shortly."),
    not_found: "That was not found.",
    invalid_arguments: "The request was not accepted as entered.",
    declined: "The change was not confirmed, so nothing was changed.",
    confirmation_required: "This change needs your confirmation, and none came. Nothing was changed.",
    confirmation_invalid: "The confirmation for this change was not accepted. Nothing was changed; try the change again.",
    limit_store_unavailable: "The server cannot check its usage limits right now. Try again shortly.",
    backend_error: "The data service could not do this.",
    backend_timeout: "The data service is busy. Try again in a moment.",
    backend_unreachable: "The data service cannot be reached right now.",
  }[meta.code];
  return { plain: plain || "The request failed.", detail };
}

// textOf returns a result's text content.
export function textOf(result) {
  const c = (result && result.content) || [];
  return c.filter((b) => b && b.type === "text").map((b) => b.text).join("\n");
}

// structured returns a result's structured content: every tool of this
// server sends it and an MCP Apps host passes the whole result on. A host
// that drops it gets the text instead (see connect); the text is plain
// words, not JSON to parse.
export function structured(result) {
  return (result && result.structuredContent) || null;
}

// errorBox shows a failure in plain words; the server's own message, written
// for the model as much as for a person, is one click away.
export function errorBox(result) {
  const r = refusal(result);
  return el(
    "div",
    { class: "refusal", role: "alert" },
    el("p", {}, r.plain),
    el("details", { class: "detail" }, el("summary", {}, "What the server said"), el("p", {}, r.detail)),
  );
}

// day shows an ISO timestamp as a date a person reads ("2 Dec 2026"), in
// UTC so every viewer sees the same day; anything else is shown as given.
export function day(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

// facetNames are the backend's facet kinds in words, singular.
const facetNames = { countries: "Country", categories: "Category", keyword: "Keywords" };
// sortNames are the orders search_companies' sort names, in words.
const sortNames = {
  relevance: "best match first",
  employees_desc: "most employees first",
  employees_asc: "fewest employees first",
  founded_desc: "newest first",
  founded_asc: "oldest first",
  name: "by name",
};

// range reads "50..1000", "50.." or "..49" as words about a number or year.
function range(v, fmt, atLeast, atMost) {
  const [lo, hi] = v.split("..");
  if (lo && hi) return `${fmt(lo)} to ${fmt(hi)}`;
  if (lo) return atLeast(fmt(lo));
  if (hi) return atMost(fmt(hi));
  return v;
}

// filterWords turns a filter in the backend's facet form into words:
// "countries;Germany" is "Country: Germany", "not categories;Fintech" is
// "Not category: Fintech", "employees;50..1000" is "Head count: 50 to
// 1,000". A form it does not know is shown with its separator as a colon.
export function filterWords(f) {
  const s = String(f);
  const not = s.startsWith("not ");
  const body = not ? s.slice(4) : s;
  const i = body.indexOf(";");
  const kind = body.slice(0, i), v = body.slice(i + 1);
  // Only the facet form: a sentence that happens to hold a semicolon (an
  // AI search's interpretation) is shown as it is.
  if (i < 0 || !/^[a-z_]+$/.test(kind)) return s;
  const count = (n) => (/^\d+$/.test(n) ? num(Number(n)) : n);
  let words;
  if (facetNames[kind]) words = `${facetNames[kind]}: ${v}`;
  else if (kind === "employees") words = `Head count: ${range(v, count, (x) => `${x} or more`, (x) => `${x} or fewer`)}`;
  else if (kind === "founded") words = `Founded: ${range(v, (y) => y, (y) => `${y} or later`, (y) => `${y} or earlier`)}`;
  else if (kind === "sort") words = `Sorted: ${sortNames[v] || v}`;
  else if (kind === "count" && v === "exact") words = "Exact count";
  else words = `${kind}: ${v}`;
  return not ? `Not ${words.charAt(0).toLowerCase()}${words.slice(1)}` : words;
}

// connect starts the view: onResult receives every tool result the host
// hands over; onInput the arguments the tool was called with.
export function connect(name, { onInput, onResult }) {
  const app = new App({ name, version: "1.0.0" }, {}, { autoResize: true });
  const theme = (ctx) => {
    if (!ctx) return;
    if (ctx.theme) applyDocumentTheme(ctx.theme);
    if (ctx.styles && ctx.styles.variables) applyHostStyleVariables(ctx.styles.variables);
  };
  app.ontoolinput = (p) => onInput && onInput((p && p.arguments) || {});
  // A result without structured content (a host that passes only the
  // text on) cannot fill a table; the server writes every fact in the
  // text as well, so the view shows that text rather than an empty table.
  app.ontoolresult = (r) => {
    if (r && !r.isError && !r.structuredContent) {
      show(document.getElementById("root"), el("pre", { class: "text-answer" }, textOf(r) || "The host passed no result to show."));
      return;
    }
    onResult(r);
  };
  app.ontoolcancelled = () => onResult({ isError: true, content: [{ type: "text", text: "The call was cancelled." }] });
  app.onhostcontextchanged = theme;
  app.onteardown = async () => ({});
  app.connect().then(() => theme(app.getHostContext()));
  return app;
}

// call runs a tool through the host. A failure of the host itself (it
// refused the call, the connection dropped) comes back as a failed result,
// so the view shows it like any other.
export async function call(app, name, args) {
  try {
    return await app.callServerTool({ name, arguments: args });
  } catch (e) {
    return { isError: true, content: [{ type: "text", text: `The host could not run ${name}: ${(e && e.message) || e}` }] };
  }
}

// companyCells are the columns the search and collection tables share.
export const columns = [
  { key: "name", label: "Name" },
  { key: "country_code", label: "Country" },
  { key: "city", label: "City" },
  { key: "employee_count", label: "Head count", numeric: true },
  { key: "founded_year", label: "Founded", numeric: true, year: true },
  { key: "categories", label: "Categories" },
];

// cell renders one company field.
export function cell(c, col) {
  const v = c[col.key];
  if (col.key === "name") return el("td", {}, el("span", { class: "name" }, c.name || ""), el("span", { class: "id" }, c.id || ""));
  if (col.key === "categories") return el("td", {}, (v || []).join(", "));
  if (col.numeric) return el("td", { class: "num" }, v === undefined || v === null ? "—" : col.year ? String(v) : num(v));
  return el("td", {}, v || "—");
}

// sortable makes a table head whose buttons sort the rows shown; state holds
// {key, dir} and rerender redraws.
export function sortableHead(cols, state, rerender, extra) {
  return el(
    "thead",
    {},
    el(
      "tr",
      {},
      cols.map((col) =>
        el(
          "th",
          { scope: "col", "aria-sort": state.key === col.key ? (state.dir > 0 ? "ascending" : "descending") : "none", class: col.numeric ? "num" : "" },
          el(
            "button",
            {
              type: "button",
              "data-sort": col.key,
              onclick: () => {
                state.dir = state.key === col.key ? -state.dir : 1;
                state.key = col.key;
                rerender();
              },
            },
            col.label,
            el("span", { class: "arrow", "aria-hidden": "true" }, state.key === col.key ? (state.dir > 0 ? " ▲" : " ▼") : ""),
          ),
        ),
      ),
      extra || [],
    ),
  );
}

// sorted returns rows sorted by state (stable; empty values last).
export function sorted(rows, state, get) {
  if (!state.key) return rows;
  const val = (r) => {
    const v = get(r)[state.key];
    return Array.isArray(v) ? v.join(", ") : v;
  };
  return rows
    .map((r, i) => [r, i])
    .sort(([a, i], [b, j]) => {
      const x = val(a), y = val(b);
      const ex = x === undefined || x === null || x === "", ey = y === undefined || y === null || y === "";
      if (ex || ey) return ex === ey ? i - j : ex ? 1 : -1;
      const d = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return d ? d * state.dir : i - j;
    })
    .map(([r]) => r);
}
