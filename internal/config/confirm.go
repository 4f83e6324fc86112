package config

import (
	"flag"
	"fmt"

	"github.com/companyintel/mcp-server/internal/loopback"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/tools"
)

// ConfirmConfig is how writes are put to the person at the keyboard
// (issue 25; tools/confirm.go).
type ConfirmConfig struct {
	// Mode is --confirm-writes (CONFIRM_WRITES): off, ask (the default)
	// or required.
	Mode tools.ConfirmMode
	// Key seals the 2026-07-28 requestState (--confirm-state-key,
	// CONFIRM_STATE_KEY: base64 of 32 bytes, or file:PATH). Nil when not
	// given: a single process then makes its own.
	Key *sealed.Key
}

// defaultConfirmMode is ask: a person whose client can ask is asked before
// anything is written, and a client that cannot ask works as before (its
// records say "not asked"), so turning writes on never breaks a client.
// required is the operator's stricter choice; off is for unattended agents.
const defaultConfirmMode = tools.ConfirmAsk

// confirmFlags registers the confirmation flags; readConfirm reads them
// after parsing.
func confirmFlags(fs *flag.FlagSet, f *flags) {
	fs.StringVar(&f.confirmMode, "confirm-writes", string(defaultConfirmMode),
		"show the person each write's preview and write only on accept: off, ask (where the client can ask; the default) or required (refuse clients that cannot ask)")
	fs.StringVar(&f.confirmKey, "confirm-state-key", "",
		"key sealing a pending confirmation so any replica can finish it: 32 random bytes in base64 (openssl rand -base64 32), or file:PATH; every replica needs the same")
}

// readConfirm reads the confirmation settings into c.
func (c *Config) readConfirm(f *flags) error {
	m, err := tools.ParseConfirmMode(f.confirmMode)
	if err != nil {
		return fmt.Errorf("%s: %w", c.from.name("confirm-writes"), err)
	}
	c.Confirm.Mode = m
	if f.confirmKey != "" {
		// The key's text is never echoed: it is a secret.
		if c.Confirm.Key, err = sealed.ParseKey(f.confirmKey); err != nil {
			return fmt.Errorf("%s: %w", c.from.name("confirm-state-key"), err)
		}
	}
	return nil
}

// checkConfirm refuses a shared HTTP service that would ask for
// confirmations without a key its replicas share: each replica would make
// its own, and a confirmation answered on another would be refused. One
// process on loopback makes its own key.
func (c Config) checkConfirm() error {
	if c.HTTP.Addr == "" || c.Confirm.Mode == tools.ConfirmOff || !c.Mutations.Any() || c.Confirm.Key != nil {
		return nil
	}
	if loopback.Addr(c.HTTP.Addr) {
		return nil
	}
	s, mode := c.from, string(c.Confirm.Mode)
	confirm := "--confirm-writes=" + mode
	if s.fromEnv("confirm-writes") {
		confirm = "CONFIRM_WRITES=" + mode
	}
	return fmt.Errorf("%s on a shared HTTP service needs %s, the same on every replica, "+
		"so that a write confirmed on one replica can be finished on another: generate one with openssl rand -base64 32, "+
		"or set %s", confirm, s.like("confirm-writes", "confirm-state-key"), s.likeSetting("confirm-writes", "confirm-writes", "off"))
}
