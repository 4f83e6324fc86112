// The company profile view, for get_company: the facts, the contacts with how
// confident the discovery is, and the website, opened through the host (a
// view in a sandbox has no navigation of its own).
import { el, show, num, connect, errorBox, structured } from "./common.js";

const root = document.getElementById("root");

const app = connect("company-profile-view", {
  onResult: (r) => render(r),
});

// safeURL keeps only http and https addresses: a website field of
// "javascript:..." is shown as text, not offered as a link.
function safeURL(s) {
  try {
    const u = new URL(s);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : "";
  } catch {
    return "";
  }
}

function fact(label, value) {
  if (value === undefined || value === null || value === "") return null;
  return [el("dt", {}, label), el("dd", {}, value)];
}

function render(r) {
  if (r.isError) {
    show(root, el("h1", {}, "Company"), errorBox(r));
    return;
  }
  const sc = structured(r) || {};
  const c = sc.company || {};
  const url = safeURL(c.website || "");
  const contacts = c.contacts || [];
  show(root,
    el("h1", {}, c.name || "Company"),
    c.description ? el("p", { class: "description" }, c.description) : null,
    el(
      "dl",
      { class: "facts" },
      fact("Id", c.id),
      fact("Website", url ? el("a", { href: url, rel: "noopener noreferrer", target: "_blank", onclick: (e) => open(e, url) }, url) : c.website),
      fact("Domain", c.domain),
      fact("Country", c.country ? `${c.country}${c.country_code ? ` (${c.country_code})` : ""}` : c.country_code),
      fact("City", c.city),
      fact("Head count", c.employee_count === undefined ? "" : num(c.employee_count)),
      fact("Founded", c.founded_year === undefined ? "" : String(c.founded_year)),
      fact("Categories", (c.categories || []).join(", ")),
      fact("Updated", c.updated_at),
    ),
    el("h2", {}, "Contacts"),
    contacts.length
      ? el(
          "div",
          { class: "scroll", tabindex: "0", role: "region", "aria-label": "Contacts" },
          el(
            "table",
            { class: "contacts" },
            el("caption", { class: "sr" }, "Work email contacts, with the confidence of each"),
            el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Email"), el("th", { scope: "col" }, "Role"), el("th", { scope: "col", class: "num" }, "Confidence"), el("th", { scope: "col" }, "Found"))),
            el(
              "tbody",
              {},
              contacts.map((k) =>
                el("tr", {}, el("th", { scope: "row" }, k.email), el("td", {}, k.role), el("td", { class: "num" }, `${Math.round((k.confidence || 0) * 100)}%`), el("td", {}, k.discovered_at || "")),
              ),
            ),
          ),
        )
      : el("p", { class: "none" }, "No contacts found yet."),
    sc.note ? el("p", { class: "note" }, sc.note) : null,
  );
}

// open asks the host to open the website; a host that refuses leaves the
// address on screen to copy.
async function open(e, url) {
  e.preventDefault();
  try {
    await app.openLink({ url });
  } catch {
    /* the address stays visible */
  }
}
