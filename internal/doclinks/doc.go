// Package doclinks holds the test that keeps the documentation navigable:
// README.md is a short front page, the rest lives in docs/ by reader, and
// every relative link and #anchor between them resolves.
package doclinks
