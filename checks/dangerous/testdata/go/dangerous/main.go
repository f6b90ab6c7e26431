// Package main holds dangerous Go. Each line marked `want:` must be
// reported with exactly those rules; no other line may be.
package main

import (
	"context"
	"crypto/des"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha1"
	"crypto/tls"
	"database/sql"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"os/exec"

	"golang.org/x/crypto/ssh"
)

func runUser(ctx context.Context, userDir, script string) error {
	if err := exec.Command("sh", "-c", "ls -l "+userDir).Run(); err != nil { // want: go-exec-shell
		return err
	}
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", script) // want: go-exec-shell
	line := fmt.Sprintf("tar czf /tmp/b.tgz %s", userDir)
	_ = exec.Command("bash", "-lc", line).Run() // want: go-exec-shell
	return cmd.Run()
}

func client() *http.Client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} // want: go-insecure-skip-verify
	cfg := &tls.Config{}
	cfg.InsecureSkipVerify = true // want: go-insecure-skip-verify
	_ = cfg
	return &http.Client{Transport: tr}
}

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

func newSessionToken(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.Intn(len(letters))] // want: go-math-rand-secret
	}
	return string(b)
}

func fillKey(key []byte) {
	rand.Read(key) // want: go-math-rand-secret
}

type PasswordReset struct{ Code int }

func newPasswordReset() PasswordReset {
	return PasswordReset{Code: rand.Intn(1000000)} // want: go-math-rand-secret
}

func queries(db *sql.DB, ctx context.Context, name, table string, id int) {
	db.Query(fmt.Sprintf("SELECT * FROM users WHERE name = '%s'", name)) // want: go-sql-injection
	db.Exec("DELETE FROM " + table + " WHERE id = 1")                    // want: go-sql-injection
	q := "SELECT * FROM accounts WHERE owner = '" + name + "'"
	db.QueryRowContext(ctx, q) // want: go-sql-injection
	q2 := "UPDATE users SET active = 1"
	q2 += " WHERE name = '" + name + "'"
	db.ExecContext(ctx, q2) // want: go-sql-injection
	where := fmt.Sprintf("WHERE id = %v", name)
	db.Query("SELECT id FROM t " + where) // want: go-sql-injection
}

func files(dir string) {
	os.WriteFile(dir+"/out.txt", []byte("x"), 0666)                 // want: go-world-writable
	os.Chmod(dir, 0777)                                             // want: go-world-writable
	os.MkdirAll(dir+"/cache", 0o777)                                // want: go-world-writable
	f, _ := os.OpenFile(dir+"/log", os.O_CREATE|os.O_WRONLY, 0o666) // want: go-world-writable
	f.Chmod(0777)                                                   // want: go-world-writable
}

func crypto(data, key []byte) {
	_ = md5.Sum(data) // want: go-weak-hash
	h := sha1.New()   // want: go-weak-hash
	h.Write(data)
	mac := hmac.New(md5.New, key) // want: go-weak-hash
	_ = mac
	block, _ := des.NewCipher(key[:8]) // want: go-weak-cipher
	_ = block
	c, _ := rc4.NewCipher(key) // want: go-weak-cipher
	_ = c
	tdes, _ := des.NewTripleDESCipher(key[:24]) // want: go-weak-cipher
	_ = tdes
}

func sshClient(user string) *ssh.ClientConfig {
	return &ssh.ClientConfig{
		User:            user,
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), // want: go-ssh-insecure-host-key
	}
}

func main() {}
