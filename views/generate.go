package views

// The views are built from web/ by the npm toolchain its lockfile pins
// (esbuild, the MCP Apps SDK); npm ci installs exactly that, and the build
// writes dist/*.html, which are committed like generated code.
//go:generate npm ci --prefix web --no-audit --no-fund --loglevel=error
//go:generate node web/build.mjs
