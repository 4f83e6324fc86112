// Package deploy checks what the project ships, from the outside: the
// container images (deploy/image/Containerfile.offline built with podman
// and run; the root Containerfile parsed and held to the same image stages),
// the Helm chart under helm/ (linted, rendered and decoded against the
// Kubernetes API types, its Deployment started) and the MCP Registry entry
// (../server.json, validated against the vendored schema in mcpregistry/).
//
// It is a module of its own so that Helm's and the Kubernetes API's
// dependencies stay out of the server's go.mod. Run it from this directory:
//
//	cd deploy && go test ./...
//
// The tests need podman and runc (apt-get install -y podman runc): without
// them they fail, saying so; they are never skipped.
package deploy
