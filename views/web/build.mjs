// Builds ../dist/<view>.html: one self-contained document per view, the App
// SDK and the view's code inlined, nothing fetched. Run by go generate
// ./views (see ../generate.go) after npm ci; the output is committed and must
// come out byte for byte the same from the same lockfile.
import * as esbuild from "esbuild";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const views = [
  { name: "search", title: "Companies" },
  { name: "profile", title: "Company profile" },
  { name: "collection", title: "Collection" },
];

// The view may load nothing: a host that applies no CSP of its own still
// gets this one (the MCP Apps default, tightened: no 'self').
const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'";

// trim keeps the bundle to what the App SDK runs. The MCP SDK packages and
// zod declare no sideEffects, so esbuild would keep every module they
// import; they have none at import time that the App needs. zod's classic
// API exports all of its ~45 locales (265 KB minified); messages are only
// ever English here.
const trim = {
  name: "trim",
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "trim" || args.kind === "entry-point") return;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "trim" });
      if (r.errors.length === 0 && /node_modules\/(@modelcontextprotocol\/(client|core)|zod)\//.test(r.path)) return { ...r, sideEffects: false };
      return r;
    });
    b.onLoad({ filter: /node_modules\/zod\/v4\/locales\/index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
    }));
  },
};

const css = (await readFile(path.join(here, "src/style.css"), "utf8")).trim();
for (const v of views) {
  const out = await esbuild.build({
    entryPoints: [path.join(here, "src", v.name + ".js")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2022",
    platform: "browser",
    charset: "utf8",
    legalComments: "none",
    write: false,
    plugins: [trim],
    logLevel: "warning",
  });
  const js = out.outputFiles[0].text.trim();
  if (/<\/script/i.test(js) || /<!--/.test(js)) throw new Error(`${v.name}: the bundle contains a sequence that would end the inline script`);
  const html =
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${v.title}</title>\n<style>\n${css}\n</style>\n</head>\n<body>\n<main id="root"></main>\n<script>${js}</script>\n</body>\n</html>\n`;
  await writeFile(path.join(here, "..", "dist", v.name + ".html"), html);
  console.log(`views/dist/${v.name}.html: ${Buffer.byteLength(html)} bytes`);
}
