package engine

var a = "AKIAUD7OTYZ54JOEQT36" // aisbx:ignore[aws-access-key-id]
var b = "AKIA2WY3CSJS2SJ26IAN" // gitleaks:allow
var c = "AKIALQVFY3L5JGY6K4VL"
