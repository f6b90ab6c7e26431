// Package config holds planted fake secrets for the scanner's corpus.
package config

import (
	"fmt"
	"os"
)

// Decoys: lookups, placeholders, documentation examples, hashes and ids.
var fromEnv = os.Getenv("GITHUB_TOKEN")
var awsDocExample = "AKIAIOSFODNN7EXAMPLE"
var placeholderToken = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
var commitSHA = "cf7a14a0e26863734513e34e71e2990a1ee50618"
var requestID = "6dad8972-0eb9-44d5-a99a-6ecc420e9ffe"
var tokenURL = "https://oauth2.example.com/token"
var maxTokens = 4096
var passwordMinLength = 12
var secretName = "prod-db-credentials"
var privateKeyID = "e7cb685c5757175442352af04f79ce248e059827"
var cacheKey = "user-profile-69324dc8beebf2517c247d0644801a9f"
var author = "Jonathan.Q.Maintainer"
var tokenizer = "cl100k_base"
var apiKeyHeader = "X-Api-Key"
var dsnNoPassword = "postgres://app@db.internal:5432/app"
var dsnTemplate = "postgres://app:${DB_PASS}@db.internal:5432/app"
var dsnFormat = "postgres://%s:%s@%s/app"

// Planted secrets.
var githubToken = "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"
var oauthToken = "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"
var appToken = "ghs_eWEMjOXsbh8OLmSVs0v5PEtzPqYbwI1JTovT"
var awsAccessKeyID = "AKIA3ZZC5JWEGL74ZTDH"
var awsSecretAccessKey = "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"
var stripeKey string = "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"
var slackWebhook = "https://hooks.slack.com/services/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"

type DB struct {
	User     string
	Password string
}

func connect() (DB, string) {
	db := DB{User: "app", Password: "mzYs5#+O*5@nIYm4"}
	dsn := "postgres://app:QJ9pQsx8#fSZCRl@W9KM@db.internal:5432/app?sslmode=disable"
	apiKey := "AIzaSyuQgrPwM7nElQZgNo6UGoFSlYlf9QgX2p-"
	fmt.Println(dsn, apiKey)
	return db, os.Getenv("HOME")
}

const signingKey = `-----BEGIN RSA PRIVATE KEY-----
n+sCTlneT4gZDZqqqmTjpWeh4PQYCU0fXabN5gBQ7FbqGxef80wWrDIUB8IJc7ua
EtfbfADnOBIg9yKOKWfwvltBPOl/rfHgzdsOYxmY1a4zCLNfEDPz8kYolO2e8Eb0
YDPnN+IU7bGXtIFkuYu29fzZYR4YAZxggNSmBOk5J85bpDFkeDe143cw5CGXJ7Z5
eZbFMZF9DNEHZHI452K5g8rPLB6TT7U98GbN6bj+dOa6TTj5DM3NMY3ZYdBKu7dK
DtcE451nDGTmevPynGLajZdfoc33/sQg0YCcQcKoowdSGOVyy1pLueyKZvwDovMM
6yx2cUSloQ+n1YHbRi6nqiUzzJ3hlzJmBgFDuvP9wOYs+63CDWtansx22S5jEYzq
x8N/D6aDj1enAIcypwrgYYgqvfUxtAAxG5Ufn2ytO3z4daJo9FWOO3jxnLcIUxrB
auQJiYDxc79LrAIFZ/4u9mjIrqgp82CKLPdz51KePgG09Y5HfJm/oI9Z0YLsggef
/jxbGTYTzER4CxdaeJM65Q60MLBqAgjuP962HyOZU6NdF3OBS+Ig6u7nejk3lu0n
7S7+N9rsIOM/uULUwzWy0f+9mZe1b8PnOk/GDl8oTOpzmIv9KycWqwiOVxdXoYqz
6gaHbDOw+T+jAvPdgNouQfG/N0NllX2r8NLByrVvMNkJogmG3/OHcDkkSOo4SSUv
CpxQ1UdKIX4jgouabToOxoUGd8qHUhct77Y5kDvIoZwedRIbrroZvNS7AUYXujnc
nd21THJHspOFgiou6wDwCC+/wAf9CUv0nHkYyOCv7In4gfp7ieh3Mp3dQaLs2yJT
VzNjT+0SyLJ5mjbrukYmsz2Aov2N/E0nEzBXrNw5ceDOywyfxVmXFLj79FFhXmOe
RlKi7gQdyrg4hHi5SV/rZ3GX1qb9dCub3x+POGYxwgIbNwXPB3GqCPMbMzDyQAGa
wouLhfyA5930evw686PJVVq/HQsGffW2yWJjD4l1eZVapynABS10UNkmNQwo2YZU
qCeE6RDs+1uQhfNt1WYu9U5eO30KzY9rrl+I3b6E9eqoS2IW2K9DkqVxOP88szs7
Ara3bfrb5JhkIE2vSAJx8BlqXYWWGH1E9EIjrnIMGa7MgEJCscZDXlVKpgCXVzRp
0R+7zjxJSyjT6zzouh8s5e+6JqYcjc5NcCfZnYeeOPdIxnDe5dHUfHHeiJhzDHG6
VVaAhVVUgYkHn+YX1Jb7FJvXZyHmI4fXMY05CxGEZj9rXn3a9V3LQAH/keEq4s3f
TnRFBwE7E/7Ka73qWUfJbT6wC4KZi1J11QbinaLuFxF8Dis1L5SvFVwfulYdvMdO
xrgE4dqoO12Jxj9FpbnYx8BkMqHwDaCR4amY8kInCb39l18Plq9vpyCPLSN2pe32
Rx+wamwaWsOQ8taVpUmHtcQR4wpPU4SjXc18VrcFOz/zkPd+d6TacXOjYO26Fvq6
Ien77QrP32jZOXKBPXY6Ov4bjDrNBDXML3w7F9sRJ9fl93bNrJ93701LWRUQbiCX
OERjXmnieWFG9BgWOELfGamjBbp1jNp5KhHjXkdFGXR1CHMbfNk=
-----END RSA PRIVATE KEY-----`

var headers = map[string]string{
	"Authorization": "Bearer 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",
	"X-Api-Key":     "sk-ant-api03-naJoTFeFtpmI4CIi8NHhMih2Ot08Baocdfz4bK7Ht_Cf6mUaTuJovGqbLnvI0KQsJ06frXbRoUvrcKBX8EhYv6gLxyB82AA",
}

func init() {
	os.Setenv("NPM_TOKEN", "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")
	os.Setenv("HF_TOKEN", os.Getenv("HUGGINGFACE_TOKEN"))
}
