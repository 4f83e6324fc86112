//go:build !linux

package redistest

import "syscall"

// procAttr: only Linux can tie the server's life to the test's.
func procAttr() *syscall.SysProcAttr { return nil }
