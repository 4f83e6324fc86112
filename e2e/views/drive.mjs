// Drives the test host (host.js) in headless Chromium for TestViewsInABrowserHost:
// each view is read through MCP, gets the tool's real result, and is checked
// in its DOM; its buttons are pressed and their calls go back through the
// host to the server. Every MCP request the page makes is POSTed to RPC_URL,
// where the Go test's MCP client forwards it to the real server.
//
// Environment: RPC_URL, CHROMIUM (the browser), OUT_DIR (screenshots),
// SCENARIO (JSON: mode "writes", "readonly" or "declined", and the ids to use).
// Prints one JSON report on stdout; a failed check exits 1 with the reason.
import * as esbuild from "esbuild";
import puppeteer from "puppeteer-core";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const { RPC_URL, CHROMIUM, OUT_DIR } = process.env;
const scenario = JSON.parse(process.env.SCENARIO);
const report = { consoleErrors: [], screenshots: [], views: {} };

function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
}

const bundle = await esbuild.build({ entryPoints: [path.join(here, "host.js")], bundle: true, format: "iife", write: false, logLevel: "warning" });
const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>e2e MCP Apps host</title></head>` +
  `<body style="margin:0;padding:16px;font-family:sans-serif"><div id="slot"></div><script>${bundle.outputFiles[0].text}</script></body></html>`;

const profile = await mkdtemp(path.join(os.tmpdir(), "views-chromium-"));
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  userDataDir: profile,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = null;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 820, height: 900 });
  page.on("console", (m) => {
    if (m.type() === "error") report.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => report.consoleErrors.push(`uncaught: ${e.message}`));
  // Anything the page or a view tries to fetch is a failure: views reach
  // nothing, and the host reaches the server only through hostRPC.
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().startsWith("data:") || r.url() === "about:blank" || r.url() === "about:srcdoc") return r.continue();
    report.consoleErrors.push(`request to ${r.url()}`);
    r.abort();
  });
  await page.exposeFunction("hostRPC", async (method, params) => {
    const res = await fetch(RPC_URL, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ method, params }) });
    const body = await res.text();
    if (!res.ok) throw new Error(`${method}: ${body}`);
    return JSON.parse(body);
  });
  await page.setContent(hostPage, { waitUntil: "load" });

  // open renders a view and returns its frame once the view has painted
  // what ready() looks for.
  async function open(opts, ready) {
    const handed = await page.evaluate((o) => window.openView(o), opts);
    const frame = await (await page.waitForSelector("#slot iframe")).contentFrame();
    await frame.waitForFunction(ready, { timeout: 20000 });
    return { frame, handed };
  }
  const rowIDs = (frame) => frame.$$eval("tbody tr[data-id]", (rs) => rs.map((r) => r.dataset.id));
  async function shot(name) {
    const file = path.join(OUT_DIR, name);
    await (await page.$("#slot")).screenshot({ path: file });
    report.screenshots.push(file);
  }

  // The console capture reaches into the view's frame: a probe logged there
  // must arrive (else "no console errors" would prove nothing).
  async function probeConsole(frame) {
    const before = report.consoleErrors.length;
    await frame.evaluate(() => console.error("console-probe"));
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && report.consoleErrors.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    const seen = report.consoleErrors.splice(before).includes("console-probe");
    check(seen, "a console.error in the view reaches the test");
  }

  if (scenario.mode === "writes") {
    // Search results: the rows are the tool's companies; a column sorts
    // them; "Show more" fetches the next page through the host.
    {
      const args = { country: "DE", limit: 5 };
      const { frame, handed } = await open({ tool: "search_companies", args, theme: "light" }, () => document.querySelectorAll("tbody tr[data-id]").length > 0);
      await probeConsole(frame);
      const want = handed.structuredContent.companies.map((c) => c.id);
      const shown = await rowIDs(frame);
      check(JSON.stringify(shown) === JSON.stringify(want), `search rows ${shown} are the result's ${want}`);
      const summary = await frame.$eval(".summary", (e) => e.textContent);
      check(summary.includes(`of ${handed.structuredContent.total_is_lower_bound ? "at least " : ""}${handed.structuredContent.total.toLocaleString("en-US")} companies`), `summary "${summary}" states the total`);
      const filters = await frame.$$eval(".filters li", (ls) => ls.map((l) => [l.dataset.filter, l.textContent]));
      check(JSON.stringify(filters.map(([f]) => f)) === JSON.stringify(handed.structuredContent.applied_filters), `filters ${filters} are the applied ones`);
      check(filters.some(([f, words]) => f === "countries;Germany" && words === "Country: Germany"), `the country filter in words: ${JSON.stringify(filters)}`);
      check(filters.every(([, words]) => !words.includes(";")), `no filter shown in the backend's form: ${JSON.stringify(filters)}`);
      await frame.click('thead button[data-sort="employee_count"]');
      await frame.waitForFunction(() => document.querySelector('th[aria-sort="ascending"] button[data-sort="employee_count"]'));
      const heads = await frame.$$eval("tbody tr td.num:nth-of-type(3)", (ts) => ts.map((t) => Number(t.textContent.replace(/,/g, ""))));
      check(heads.every((h, i) => i === 0 || Number.isNaN(h) || heads[i - 1] <= h), `head counts ${heads} ascending`);
      await frame.click("button.more");
      await frame.waitForFunction((n) => document.querySelectorAll("tbody tr[data-id]").length > n, { timeout: 20000 }, want.length);
      const after = await rowIDs(frame);
      check(want.every((id) => after.includes(id)) && after.length === 10, `after "Show more" the 10 rows ${after} include the first page`);
      await frame.click('thead button[data-sort="name"]');
      await frame.waitForFunction(() => document.querySelector('th[aria-sort="ascending"] button[data-sort="name"]'));
      await shot("search-light.png");
      report.views.search = { first: want, afterMore: after, total: handed.structuredContent.total };
    }
    // ai_search: the same view; its "Show more" continues with
    // search_companies and the filters the request was read as.
    {
      const { frame, handed } = await open({ tool: "ai_search", args: { query: "robotics companies in Germany", limit: 3 }, theme: "light" }, () => document.querySelectorAll("tbody tr[data-id]").length > 0);
      const want = handed.structuredContent.companies.map((c) => c.id);
      check(JSON.stringify(await rowIDs(frame)) === JSON.stringify(want), "ai_search rows are the result's");
      const filters = await frame.$$eval(".filters li", (ls) => ls.map((l) => l.textContent));
      check(filters[0] === handed.structuredContent.interpretation, `ai_search shows its reading: ${filters}`);
      let after = want;
      if (handed.structuredContent.total > want.length) {
        await frame.click("button.more");
        await frame.waitForFunction((n) => document.querySelectorAll("tbody tr[data-id]").length > n, { timeout: 20000 }, want.length);
        after = await rowIDs(frame);
      }
      report.views.ai = { first: want, afterMore: after, total: handed.structuredContent.total };
    }
    // The profile, in the dark theme: facts, contacts, the website link
    // opened through the host.
    {
      const { frame, handed } = await open({ tool: "get_company", args: { id: scenario.company }, theme: "dark" }, () => document.querySelector("h1") && document.querySelector("h1").textContent !== "Company");
      const c = handed.structuredContent.company;
      check((await frame.$eval("h1", (e) => e.textContent)) === c.name, "profile names the company");
      const dd = await frame.$$eval("dl.facts dd", (ds) => ds.map((d) => d.textContent));
      check(dd.includes(c.id) && dd.includes(c.domain), `profile facts ${dd}`);
      const contacts = await frame.$$eval("table.contacts tbody tr", (rs) => rs.length);
      check(contacts === c.contacts.length, `contacts shown ${contacts} = ${c.contacts.length}`);
      const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
      check(bg !== "rgb(255, 255, 255)", `dark theme applied (background ${bg})`);
      await frame.click("dl.facts a");
      await page.waitForFunction((u) => window.openedLinks.includes(u), { timeout: 10000 }, new URL(c.website).href);
      await shot("profile-dark.png");
      report.views.profile = { id: c.id, contacts };
    }
    // The collection: its companies; adding one goes through the host to
    // add_to_collection, and the list shows it.
    {
      const { frame, handed } = await open({ tool: "get_collection_items", args: { collection_id: scenario.collection }, theme: "light" }, () => document.querySelector("form.add"));
      const want = handed.structuredContent.items.map((i) => i.company.id);
      check(JSON.stringify(await rowIDs(frame)) === JSON.stringify(want), "collection rows are its items");
      const h1 = await frame.$eval("h1", (e) => e.textContent);
      check(h1 === handed.structuredContent.collection.name, `the collection's name is shown as text: ${h1}`);
      check((await frame.$$("#root img, #root script")).length === 0, "a hostile collection name adds no element");
      await frame.type("#add-ids", scenario.add);
      await frame.click("form.add button[type=submit]");
      await frame.waitForFunction((id) => document.querySelector(`tbody tr[data-id="${id}"]`), { timeout: 20000 }, scenario.add);
      const outcome = await frame.$eval(".outcome", (e) => e.textContent);
      check(outcome.startsWith("Added 1"), `outcome "${outcome}"`);
      // Removing a row goes through the host to remove_from_collection;
      // the button names the company it removes, and the row goes.
      const name = handed.structuredContent.items.find((i) => i.company.id === scenario.remove).company.name;
      const label = await frame.$eval(`button.remove[data-id="${scenario.remove}"]`, (b) => b.getAttribute("aria-label"));
      check(label === `Remove ${name} from the collection`, `the remove button names the company: ${label}`);
      await frame.click(`button.remove[data-id="${scenario.remove}"]`);
      await frame.waitForFunction((id) => !document.querySelector(`tbody tr[data-id="${id}"]`) && document.querySelector(".removal"), { timeout: 20000 }, scenario.remove);
      const removal = await frame.$eval(".removal", (e) => e.textContent);
      check(removal === `Removed ${name} from the collection.`, `removal "${removal}"`);
      const after = await rowIDs(frame);
      check(!after.includes(scenario.remove) && after.includes(scenario.add) && after.length === want.length, `rows after the removal: ${after}`);
      const focused = await frame.evaluate(() => document.activeElement && document.activeElement.className);
      check(focused === "remove", `the keyboard stays on the next row's Remove, not ${focused}`);
      await shot("collection-light.png");
      report.views.collection = { before: want, after, outcome, removal };
      // The collection at phone width in the dark theme: each row's Remove
      // stays in sight at the right edge.
      const narrow = await open({ tool: "get_collection_items", args: { collection_id: scenario.collection }, theme: "dark", width: 360 }, () => document.querySelector("form.add"));
      const inSight = await narrow.frame.$$eval("button.remove", (bs) => bs.every((b) => b.getBoundingClientRect().right <= window.innerWidth));
      check(inSight, "at 360 px every Remove button is in sight");
      await shot("collection-narrow-dark.png");
    }
    // Hostile text in a result renders as text: markup, a script, a
    // javascript: website, a very long name.
    {
      const evil = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>` + "W".repeat(3000);
      const company = { id: "cmp_hostile", name: evil, domain: "x.example", country_code: "DE", city: "<b>Berlin</b>", categories: ["<i>AI</i>"], employee_count: 5, founded_year: 2020 };
      const result = { content: [{ type: "text", text: "hostile" }], structuredContent: { companies: [company], total: 1, total_is_lower_bound: false, applied_filters: ["<u>filter</u>"] } };
      const { frame } = await open({ tool: "search_companies", args: { query: "x" }, theme: "dark", width: 360, result }, () => document.querySelector("tbody tr[data-id]"));
      const text = await frame.$eval("tbody th .name", (e) => e.textContent);
      check(text === evil, "the hostile name is shown character for character");
      check((await frame.$$("#root img, #root script, #root b, #root i, #root u")).length === 0, "no markup from the data became elements");
      check((await frame.evaluate(() => document.title)) !== "pwned", "no script from the data ran");
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
      check(overflow, "at 360 px the long name wraps inside the view");
      // Invisible characters (a bidi override, zero-width ones, tag
      // characters spelling text, variation selectors) are not shown: the
      // view cleans as the server does (issue 34).
      const invisible = "Acme\u202Eevil\u202C\u200B\u2060\u{E0069}\u{E0067}\u{E0100}\u{E0101}\u3164 Labs";
      const profileResult = { content: [{ type: "text", text: "hostile" }], structuredContent: { company: { ...company, website: "javascript:document.title='pwned'", description: evil, country: "Germany", city: invisible, updated_at: "", contacts: [] } } };
      const p = await open({ tool: "get_company", args: { id: "cmp_hostile" }, theme: "light", result: profileResult }, () => document.querySelector("p.description"));
      check((await p.frame.$eval("p.description", (e) => e.textContent)) === evil, "the hostile description is text");
      const page = await p.frame.$eval("#root", (e) => e.textContent);
      check(page.includes("Acmeevil Labs") && !/[\u202E\u200B\u2060\u3164\u{E0000}-\u{E01EF}]/u.test(page), "invisible characters are not shown");
      check((await p.frame.$$("#root a, #root img, #root script")).length === 0, "a javascript: website is not a link");
      await shot("hostile-narrow-dark.png");
    }
    // A host that passes only the text on (no structuredContent): the view
    // shows the server's plain-text answer, as text, not an empty table.
    {
      const said = "2 companies (total 2):\n<b>Acme</b> (cmp_1) | DE | Berlin";
      const { frame } = await open({ tool: "search_companies", args: { query: "x" }, theme: "light", result: { content: [{ type: "text", text: said }] } }, () => document.querySelector("pre.text-answer"));
      check((await frame.$eval("pre.text-answer", (e) => e.textContent)) === said, "a text-only result is shown as the server's text");
      check((await frame.$$("#root table, #root b")).length === 0, "a text-only result draws no empty table and no markup");
    }
    // The search view at phone width in the dark theme, for the README.
    {
      await open({ tool: "search_companies", args: { country: "DE", limit: 4 }, theme: "dark", width: 360 }, () => document.querySelectorAll("tbody tr[data-id]").length > 0);
      await shot("search-narrow-dark.png");
    }
  } else if (scenario.mode === "declined") {
    // Writes are on, and the person declines the removal when the server
    // asks: the view says so in plain words, and the row stays.
    const { frame } = await open({ tool: "get_collection_items", args: { collection_id: scenario.collection }, theme: "light" }, () => document.querySelector("form.add"));
    const before = await rowIDs(frame);
    await frame.click(`button.remove[data-id="${scenario.remove}"]`);
    await frame.waitForSelector(".removal .refusal", { timeout: 20000 });
    const declined = await frame.$eval(".removal .refusal p", (e) => e.textContent);
    check(declined === "The change was not confirmed, so nothing was changed.", `a declined removal in plain words: ${declined}`);
    check(JSON.stringify(await rowIDs(frame)) === JSON.stringify(before), "nothing was removed");
    report.views.declined = { declined };
  } else {
    // Writes are off: the view's add is refused by the server's gate, and
    // the view says so in plain words.
    const { frame } = await open({ tool: "get_collection_items", args: { collection_id: scenario.collection }, theme: "light" }, () => document.querySelector("form.add"));
    await probeConsole(frame);
    const before = await rowIDs(frame);
    await frame.type("#add-ids", scenario.add);
    await frame.click("form.add button[type=submit]");
    await frame.waitForSelector(".refusal", { timeout: 20000 });
    const refusal = await frame.$eval(".refusal", (e) => e.textContent);
    check(refusal.includes("This server does not allow changes") && refusal.includes("Nothing was changed"), `refusal in plain words: ${refusal}`);
    check(JSON.stringify(await rowIDs(frame)) === JSON.stringify(before), "nothing was added");
    await shot("collection-refused.png");
    // The row's Remove is refused by the same gate, says so where the row
    // is, and the row stays.
    await frame.click(`button.remove[data-id="${scenario.remove}"]`);
    await frame.waitForSelector(".removal .refusal", { timeout: 20000 });
    const removeRefusal = await frame.$eval(".removal .refusal p", (e) => e.textContent);
    check(removeRefusal === "This server does not allow changes: writes are switched off by its operator. Nothing was changed.", `remove refused in plain words: ${removeRefusal}`);
    check(JSON.stringify(await rowIDs(frame)) === JSON.stringify(before), "nothing was removed");
    check((await frame.$$(".added")).length === 0, "the add's refusal made way for the removal's");
    await shot("collection-remove-refused.png");
    report.views.refused = { refusal, removeRefusal };
  }
  check(report.consoleErrors.length === 0, `no console errors: ${JSON.stringify(report.consoleErrors)}`);
} catch (e) {
  failed = e;
} finally {
  await browser.close();
  await rm(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(report) + "\n");
if (failed) {
  process.stderr.write(`${failed.stack || failed}\n`);
  process.exit(1);
}
