package authn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// registrationLog keeps the clients that registered and signed in, as an
// append-only file of JSON lines: one line per client kept, forgotten or
// (at most hourly) used. A sign-in appends a line; nothing rewrites the
// file per registration. When the lines outnumber the clients kept by more
// than half again, the file is compacted: rewritten, through a rename, as
// one line per client.
type registrationLog struct {
	file  string
	lines int
}

// registrationRecord is one line of the log.
type registrationRecord struct {
	Add *clientMetadata `json:"add,omitempty"`
	Del string          `json:"del,omitempty"`
	Use string          `json:"use,omitempty"`
	At  int64           `json:"at,omitempty"`
}

// keptClient is a client in the log and when it last signed in.
type keptClient struct {
	md clientMetadata
	at time.Time
}

// openRegistrationLog replays the log and returns the clients it keeps,
// at most max of them (those that signed in most recently). A line that
// does not parse (the end of a write cut by a crash) is skipped, and the
// file compacted. The JSON list earlier versions wrote is read too, and
// rewritten as a log.
func openRegistrationLog(file string, max int) (*registrationLog, []keptClient, error) {
	l := &registrationLog{file: file}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("issuer registrations: %w", err)
	}
	kept := map[string]keptClient{}
	rewrite := false
	if trimmed := bytes.TrimSpace(b); bytes.HasPrefix(trimmed, []byte("[")) {
		var legacy []clientMetadata
		if err := json.Unmarshal(trimmed, &legacy); err != nil {
			return nil, nil, fmt.Errorf("issuer registrations %s: not the registrations this server writes (move it aside to start afresh): %w", file, err)
		}
		for _, md := range legacy {
			kept[md.ClientID] = keptClient{md: md, at: time.Unix(md.IssuedAt, 0)}
		}
		rewrite = true
	} else {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			l.lines++
			var rec registrationRecord
			if json.Unmarshal(line, &rec) != nil {
				rewrite = true
				continue
			}
			switch {
			case rec.Add != nil:
				kept[rec.Add.ClientID] = keptClient{md: *rec.Add, at: time.Unix(rec.At, 0)}
			case rec.Del != "":
				delete(kept, rec.Del)
			case rec.Use != "":
				if k, ok := kept[rec.Use]; ok {
					k.at = time.Unix(rec.At, 0)
					kept[rec.Use] = k
				}
			}
		}
		if sc.Err() != nil {
			rewrite = true
		}
	}
	var list []keptClient
	for id, k := range kept {
		if id != "" && checkMetadata(&k.md) == nil {
			list = append(list, k)
		} else {
			rewrite = true
		}
	}
	if len(list) > max {
		slices.SortFunc(list, func(a, b keptClient) int { return b.at.Compare(a.at) })
		list, rewrite = list[:max], true
	}
	if rewrite || l.long(len(list)) {
		if err := l.rewrite(list); err != nil {
			return nil, nil, err
		}
	}
	return l, list, nil
}

// long reports whether the log should be compacted for n clients kept.
func (l *registrationLog) long(n int) bool { return l.lines > n+n/2+16 }

// append writes one line.
func (l *registrationLog) append(rec registrationRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(l.file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	l.lines++
	return nil
}

// compactIfLong rewrites the log when it is long for n clients.
func (l *registrationLog) compactIfLong(n int, snapshot func() []keptClient) error {
	if !l.long(n) {
		return nil
	}
	return l.rewrite(snapshot())
}

// rewrite replaces the log with one line per client, through a rename, so
// a crash never leaves half a file.
func (l *registrationLog) rewrite(list []keptClient) error {
	slices.SortFunc(list, func(a, b keptClient) int { return strings.Compare(a.md.ClientID, b.md.ClientID) })
	var buf bytes.Buffer
	for _, k := range list {
		md := k.md
		b, err := json.Marshal(registrationRecord{Add: &md, At: k.at.Unix()})
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(l.file), ".registrations-*")
	if err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("issuer registrations: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	if err := os.Rename(tmp.Name(), l.file); err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	l.lines = len(list)
	return nil
}
