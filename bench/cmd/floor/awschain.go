//go:build awschain

package main

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
)

// With -tags awschain the floor also resolves the standard AWS credential
// chain at start, in the background, as any server offering IAM auth does
// before it knows which method wins (mcp-server's chain: DESIGN.md). The
// metadata-service probe is bounded as mcp-server bounds it. mcpbench
// measures mcp-server's memory against this build ("the floor with the AWS
// credential chain resolved").
func init() {
	atStart = func() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cfg, err := config.LoadDefaultConfig(ctx)
			if err != nil {
				return
			}
			probe, cancelProbe := context.WithTimeout(ctx, time.Second)
			defer cancelProbe()
			cfg.Credentials.Retrieve(probe)
		}()
	}
}
