package decoys

// Look-alikes found in the Go source tree: none of them is a secret.

const jsFetchCreds = "js.fetch:credentials"

var vectors = map[string]string{
	"encryptionKey": "encryptionKey1024",
}

var ekus = []string{"serverAuth", "clientAuth"}

func sensitive(h string) bool {
	switch h {
	case "Authorization", "Www-Authenticate", "Cookie", "Cookie2":
		return true
	}
	return false
}

var redirects = []string{
	"http://gopher:go@test.com",
	"http://foo:bar@bar.com",
}

const basicAuthExample = "GET / HTTP/1.1\r\nAuthorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\r\n\r\n"
