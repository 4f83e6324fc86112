// The collection view, for get_collection_items: the collection's companies,
// a Remove button on each row and a form that adds companies. Both call the
// write tools (remove_from_collection, add_to_collection) through the host,
// so the server's mutation gate, the caller's scopes and any confirmation
// apply to the view exactly as to a model; a refusal (writes off, a missing
// scope, a declined confirmation) is shown in plain words.
import { el, show, num, connect, call, errorBox, structured, columns, cell, sortableHead, sorted, day } from "./common.js";

const root = document.getElementById("root");
const cols = [...columns.filter((c) => c.key !== "categories"), { key: "added_at", label: "Added" }];
// state.outcome is the add form's answer, shown under the form; state.removal
// the last removal's, shown above the table, where the row was.
const state = { args: {}, collection: null, items: [], total: 0, next: "", error: null, outcome: null, removal: null, busy: false, sort: { key: "", dir: 1 } };

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
  state.removal = null;
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

// remove takes one company out through remove_from_collection. On success
// the row goes at once and the page is read again (the server's count and
// order); on a refusal the row stays and the reason is shown.
async function remove(company) {
  if (state.busy) return;
  const index = state.items.findIndex((x) => x.id === company.id);
  state.busy = true;
  state.removal = null;
  state.outcome = null;
  render();
  const r = await call(app, "remove_from_collection", { collection_id: state.collection.id, company_ids: [company.id] });
  state.busy = false;
  const name = company.name || company.id;
  if (r.isError) {
    state.removal = { error: r };
  } else {
    const sc = structured(r) || {};
    const gone = (sc.removed || []).includes(company.id);
    state.removal = { plain: gone ? `Removed ${name} from the collection.` : `${name} was no longer in the collection; nothing was removed.` };
    state.items = state.items.filter((x) => x.id !== company.id);
    if (sc.collection && typeof sc.collection.item_count === "number") state.total = sc.collection.item_count;
    await reload();
  }
  render();
  // Keep the keyboard where the row was: on the next row's button, else
  // on the message that says what happened.
  const buttons = root.querySelectorAll("button.remove");
  const target = r.isError ? root.querySelector(`button.remove[data-id="${CSS.escape(company.id)}"]`) : buttons[Math.min(index, buttons.length - 1)];
  (target || root.querySelector(".removal")).focus();
}

function row(x) {
  const name = x.name || x.id;
  return el(
    "tr",
    { "data-id": x.id },
    cols.map((col) =>
      col.key === "name"
        ? el("th", { scope: "row" }, ...cell(x, col).childNodes)
        : col.key === "added_at"
          ? el("td", {}, x.added_at ? el("time", { datetime: x.added_at }, day(x.added_at)) : "—")
          : cell(x, col),
    ),
    el(
      "td",
      { class: "action" },
      el("button", { type: "button", class: "remove", "data-id": x.id, "aria-label": `Remove ${name} from the collection`, disabled: state.busy, onclick: () => remove(x) }, "Remove"),
    ),
  );
}

function message(m, cls) {
  if (!m) return null;
  return m.error ? el("div", { class: cls, tabindex: "-1" }, errorBox(m.error)) : el("p", { class: `outcome ${cls}`, role: "status", tabindex: "-1" }, m.plain);
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
    message(state.removal, "removal"),
    state.items.length
      ? el(
          "div",
          { class: "scroll", tabindex: "0", role: "region", "aria-label": "Companies in the collection" },
          el(
            "table",
            {},
            el("caption", { class: "sr" }, "Companies in this collection; the column buttons sort the rows shown, and each row's Remove button takes that company out."),
            sortableHead(cols, state.sort, render, el("th", { scope: "col", class: "action" }, el("span", { class: "sr" }, "Actions"))),
            el("tbody", {}, sorted(state.items, state.sort, (x) => x).map(row)),
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
    message(state.outcome, "added"),
  );
  root.querySelector("#add-ids").value = typed && state.busy ? typed : state.outcome && !state.outcome.error ? "" : typed;
}

render();
