// Package main holds safe Go: nothing here may be reported.
//
// Words in comments are not code: exec.Command("sh", "-c", x),
// InsecureSkipVerify: true, md5.Sum(b), rand.Intn(n) for a token.
package main

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

const cleanup = "rm -rf /tmp/aisbx-build"

func processes(ctx context.Context, dir, ref string) error {
	if err := exec.Command("git", "log", ref).Run(); err != nil {
		return err
	}
	if err := exec.CommandContext(ctx, "ls", "-l", dir).Run(); err != nil {
		return err
	}
	if err := exec.Command("sh", "-c", "echo hello | wc -c").Run(); err != nil {
		return err
	}
	script := "make clean && make"
	if err := exec.Command("bash", "-c", script).Run(); err != nil {
		return err
	}
	return exec.Command("sh", "-c", cleanup).Run()
}

func tlsConfig(skip bool) *tls.Config {
	msg := "never set InsecureSkipVerify: true"
	_ = msg
	return &tls.Config{InsecureSkipVerify: false, MinVersion: tls.VersionTLS12}
}

func randomness(items []string) (string, time.Duration) {
	b := make([]byte, 32)
	if _, err := crand.Read(b); err != nil {
		panic(err)
	}
	token := fmt.Sprintf("%x", b)
	jitter := time.Duration(rand.Intn(100)) * time.Millisecond
	rand.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return token, jitter
}

func queries(ctx context.Context, db *sql.DB, name string, id, limit int) error {
	if _, err := db.Query("SELECT * FROM users WHERE name = $1", name); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id); err != nil {
		return err
	}
	q := fmt.Sprintf("SELECT * FROM users ORDER BY id LIMIT %d", limit)
	if _, err := db.Query(q); err != nil {
		return err
	}
	const table = "users"
	if _, err := db.Query("SELECT * FROM "+table+" WHERE id = $1", id); err != nil {
		return err
	}
	doc := "db.Query(\"SELECT * FROM t WHERE name = '\" + name + \"'\")"
	_ = doc
	return nil
}

func files(dir string) error {
	if err := os.WriteFile(dir+"/out.txt", []byte("x"), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(dir+"/cache", 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(dir+"/tmp", os.ModePerm); err != nil {
		return err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	perm := fs.FileMode(uint32(info.Mode()) & 0777) // a mask, not a mode
	if err := os.Chmod(dir, perm&^0222); err != nil {
		return err
	}
	return os.Chmod(dir, 0700)
}

func hashes(data []byte) [32]byte {
	return sha256.Sum256(data)
}

func sshConfig(user string) (*ssh.ClientConfig, error) {
	cb, err := knownhosts.New(os.ExpandEnv("$HOME/.ssh/known_hosts"))
	if err != nil {
		return nil, err
	}
	return &ssh.ClientConfig{User: user, HostKeyCallback: cb}, nil
}

func shadowed() int {
	rand := struct{ Intn func(int) int }{Intn: func(n int) int { return n }}
	token := rand.Intn(10)
	return token
}

func main() {}
