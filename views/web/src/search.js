// The search results view, for search_companies and ai_search: the companies
// as a table sortable on the rows shown, the filters that were applied, the
// total ("at least" when it is a lower bound), and a button that fetches the
// next page by calling search_companies through the host.
import { el, show, num, connect, call, errorBox, structured, columns, cell, sortableHead, sorted, filterWords } from "./common.js";

const root = document.getElementById("root");
const state = { args: {}, rows: [], seen: new Set(), total: 0, atLeast: false, filters: [], notApplied: [], cursor: "", next: null, error: null, busy: false, sort: { key: "", dir: 1 } };

const app = connect("company-search-view", {
  onInput: (args) => (state.args = args),
  onResult: (r) => {
    reset();
    take(r, true);
    render();
  },
});

function reset() {
  Object.assign(state, { rows: [], seen: new Set(), total: 0, atLeast: false, filters: [], notApplied: [], next: null, error: null });
}

// lowerBound reads whether the total is a lower bound: a field when the
// server states it, else the words of its note ("at least 1000").
function lowerBound(sc) {
  if (sc.total_is_lower_bound === true || sc.total_at_least === true || sc.total_exact === false) return true;
  return /\bat least \d/.test(sc.note || "");
}

// take adds one page. The next page is search_companies with the same
// arguments and the cursor; an ai_search answer has no cursor, so its next
// page is search_companies with the filters it was read as (the arguments
// its note tells a model to use), skipping the companies already shown.
function take(r, first) {
  if (r.isError) {
    state.error = r;
    return;
  }
  const sc = structured(r) || {};
  for (const c of sc.companies || []) {
    if (state.seen.has(c.id)) continue;
    state.seen.add(c.id);
    state.rows.push(c);
  }
  if (first) {
    state.total = sc.total || 0;
    state.atLeast = lowerBound(sc);
    if (sc.interpretation !== undefined) {
      state.filters = [sc.interpretation].filter(Boolean);
      state.notApplied = sc.not_applied || [];
    } else {
      state.filters = sc.applied_filters || [];
      state.notApplied = sc.not_applied || [];
    }
  }
  if (sc.next_cursor) {
    const base = sc.interpretation !== undefined ? repeatArgs(sc.interpreted || {}) : state.next ? state.next.base : state.args;
    state.next = { base, cursor: sc.next_cursor };
  } else if (first && sc.interpretation !== undefined && state.rows.length < state.total) {
    state.next = { base: repeatArgs(sc.interpreted || {}), cursor: "" };
  } else {
    state.next = null;
  }
}

// repeatArgs are search_companies' arguments for what ai_search understood
// (several countries as one list, "US,CA").
function repeatArgs(i) {
  const a = {};
  if (i.keywords) a.query = i.keywords;
  if (i.countries && i.countries.length) a.country = i.countries.join(",");
  if (i.categories && i.categories.length) a.categories = i.categories;
  for (const k of ["min_employees", "max_employees", "founded_after", "founded_before"]) if (i[k] !== undefined && i[k] !== null) a[k] = i[k];
  return a;
}

async function more() {
  if (!state.next || state.busy) return;
  state.busy = true;
  render();
  const { base, cursor } = state.next;
  const args = { ...base };
  delete args.cursor;
  delete args.context;
  if (cursor) args.cursor = cursor;
  const r = await call(app, "search_companies", args);
  state.busy = false;
  state.error = null;
  const before = state.rows.length;
  if (r.isError) state.error = r;
  else {
    take(r, false);
    // A page that adds nothing new ends the paging rather than loop.
    if (state.rows.length === before) state.next = null;
  }
  render();
  const rows = root.querySelectorAll("tbody tr");
  if (rows[before]) rows[before].querySelector("th,td").focus();
}

function render() {
  const shown = state.rows.length;
  const total = state.atLeast ? `at least ${num(state.total)}` : num(state.total);
  const body = sorted(state.rows, state.sort, (c) => c);
  show(root,
    el("h1", {}, "Companies"),
    el("p", { class: "summary", role: "status", "aria-live": "polite" }, state.busy ? "Loading more…" : `Showing ${num(shown)} of ${total} companies.`),
    state.filters.length ? el("ul", { class: "filters", "aria-label": "Applied filters" }, state.filters.map((f) => el("li", { "data-filter": f }, filterWords(f)))) : el("p", { class: "filters none" }, "No filters applied."),
    state.notApplied.length ? el("p", { class: "not-applied" }, "Not applied: ", state.notApplied.map(filterWords).join("; ")) : null,
    el(
      "div",
      { class: "scroll", tabindex: "0", role: "region", "aria-label": "Search results" },
      el(
        "table",
        {},
        el("caption", { class: "sr" }, "Companies found; the column buttons sort the rows shown."),
        sortableHead(columns, state.sort, render),
        el("tbody", {}, body.map((c) => el("tr", { "data-id": c.id }, columns.map((col) => (col.key === "name" ? th(c) : cell(c, col)))))),
      ),
    ),
    state.error ? errorBox(state.error) : null,
    state.next ? el("button", { type: "button", class: "more", onclick: more, disabled: state.busy }, state.busy ? "Loading…" : "Show more") : null,
  );
}

// th is a row's header cell: the company's name and id.
function th(c) {
  return el("th", { scope: "row", tabindex: "-1" }, ...cell(c, columns[0]).childNodes);
}

render();
