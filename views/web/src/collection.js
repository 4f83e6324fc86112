// The collection view, for get_collection_items: the collection's companies,
// and a form that adds companies by calling add_to_collection through the
// host, so the server's mutation gate, the caller's scopes and any
// confirmation apply to the view exactly as to a model; a refusal is shown
// in plain words. There is no remove: the API has no tool for it.
import { el, show, num, connect, call, errorBox, structured, columns, cell, sortableHead, sorted } from "./common.js";

const root = document.getElementById("root");
const cols = [...columns.filter((c) => c.key !== "categories"), { key: "added_at", label: "Added" }];
const state = { args: {}, collection: null, items: [], total: 0, next: "", error: null, outcome: null, busy: false, sort: { key: "", dir: 1 } };

const app = connect("company-collection-view", {
  onInput: (args) => (state.args = args),
  onResult: (r) => {
    take(r, true);
    render();
  },
});

function take(r, first) {
  if (r.isError) {
    state.error = r;
    return;
  }
  const sc = structured(r) || {};
  state.error = null;
  state.collection = sc.collection || state.collection;
  const items = (sc.items || []).map((i) => ({ ...i.company, added_at: i.added_at }));
  state.items = first ? items : state.items.concat(items);
  state.total = sc.total || 0;
  state.next = sc.next_cursor || "";
}

// reload shows the collection again from its first page, after a change.
async function reload() {
  const r = await call(app, "get_collection_items", { collection_id: state.collection.id, limit: state.args.limit || 20 });
  take(r, true);
}

async function more() {
  state.busy = true;
  render();
  take(await call(app, "get_collection_items", { collection_id: state.collection.id, limit: state.args.limit || 20, cursor: state.next }), false);
  state.busy = false;
  render();
}

async function add(e) {
  e.preventDefault();
  const input = root.querySelector("#add-ids");
  const ids = input.value.split(/[\s,]+/).filter(Boolean);
  if (!ids.length) {
    state.outcome = { plain: "Enter at least one company id, such as cmp_000123." };
    render();
    return;
  }
  state.busy = true;
  state.outcome = null;
  render();
  const r = await call(app, "add_to_collection", { collection_id: state.collection.id, company_ids: ids });
  state.busy = false;
  if (r.isError) {
    state.outcome = { error: r };
  } else {
    const sc = structured(r) || {};
    const parts = [`Added ${num((sc.added || []).length)}`];
    if ((sc.already_present || []).length) parts.push(`already there: ${sc.already_present.join(", ")}`);
    if ((sc.not_found || []).length) parts.push(`not found: ${sc.not_found.join(", ")}`);
    state.outcome = { plain: parts.join("; ") + "." };
    await reload();
  }
  render();
  root.querySelector("#add-ids").focus();
}

function render() {
  const c = state.collection;
  if (!c) {
    show(root, el("h1", {}, "Collection"), state.error ? errorBox(state.error) : el("p", {}, "Waiting for the collection…"));
    return;
  }
  const prev = root.querySelector("#add-ids");
  const typed = prev ? prev.value : "";
  show(root,
    el("h1", {}, c.name || "Collection"),
    c.description ? el("p", { class: "description" }, c.description) : null,
    el("p", { class: "summary", role: "status", "aria-live": "polite" }, state.busy ? "Working…" : `Showing ${num(state.items.length)} of ${num(state.total)} companies.`),
    state.items.length
      ? el(
          "div",
          { class: "scroll", tabindex: "0", role: "region", "aria-label": "Companies in the collection" },
          el(
            "table",
            {},
            el("caption", { class: "sr" }, "Companies in this collection; the column buttons sort the rows shown."),
            sortableHead(cols, state.sort, render),
            el("tbody", {}, sorted(state.items, state.sort, (x) => x).map((x) => el("tr", { "data-id": x.id }, cols.map((col) => (col.key === "name" ? el("th", { scope: "row" }, ...cell(x, col).childNodes) : col.key === "added_at" ? el("td", {}, x.added_at || "") : cell(x, col)))))),
          ),
        )
      : el("p", { class: "none" }, "This collection is empty."),
    state.next ? el("button", { type: "button", class: "more", onclick: more, disabled: state.busy }, "Show more") : null,
    state.error ? errorBox(state.error) : null,
    el(
      "form",
      { class: "add", onsubmit: add, "aria-label": "Add companies" },
      el("label", { for: "add-ids" }, "Add companies by id"),
      el("input", { id: "add-ids", name: "ids", type: "text", autocomplete: "off", placeholder: "cmp_000123, cmp_000456", "aria-describedby": "add-help" }),
      el("button", { type: "submit", disabled: state.busy }, "Add"),
      el("p", { id: "add-help", class: "help" }, "Separate several ids with commas or spaces. The server's write rules apply."),
    ),
    state.outcome ? (state.outcome.error ? errorBox(state.outcome.error) : el("p", { class: "outcome", role: "status" }, state.outcome.plain)) : null,
  );
  root.querySelector("#add-ids").value = typed && state.busy ? typed : state.outcome && !state.outcome.error ? "" : typed;
}

render();
