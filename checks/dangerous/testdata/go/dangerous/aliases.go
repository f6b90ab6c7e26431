package main

// Aliased and dot imports must resolve to the dangerous package.
import (
	"database/sql"
	fm "fmt"
	mr "math/rand"
	r2 "math/rand/v2"
	. "os/exec"

	insecure "crypto/md5"
	gossh "golang.org/x/crypto/ssh"
)

func aliased(db *sql.DB, arg, pw string) {
	_ = Command("zsh", "-c", arg).Run()                         // want: go-exec-shell
	apiKey := mr.Int63()                                        // want: go-math-rand-secret
	otp := r2.IntN(1000000)                                     // want: go-math-rand-secret
	digest := insecure.Sum([]byte(pw))                          // want: go-weak-hash
	db.Query(fm.Sprintf("SELECT * FROM t WHERE pw = '%s'", pw)) // want: go-sql-injection
	_ = gossh.InsecureIgnoreHostKey()                           // want: go-ssh-insecure-host-key
	_, _, _ = apiKey, otp, digest
}
