package secrets

import "bytes"

// azuriteKey is the published key of Azure's local storage emulator.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// azureKeyAt finds the AccountKey of an Azure storage connection string;
// the keyword "AccountKey=" ends at kwEnd.
func azureKeyAt(b []byte, kwEnd int) (match, bool) {
	e := kwEnd
	for e < len(b) && e-kwEnd < 100 && (isWordByte(b[e]) && b[e] != '_' || b[e] == '+' || b[e] == '/') {
		e++
	}
	for e < len(b) && e-kwEnd < 100 && b[e] == '=' {
		e++
	}
	key := b[kwEnd:e]
	if len(key) < 80 || len(key) > 100 || string(key) == azuriteKey || isPlaceholder(key) {
		return match{}, false
	}
	if e < len(b) && (isWordByte(b[e]) || b[e] == '+' || b[e] == '/') {
		return match{}, false
	}
	// The connection string is the run of non-blank, unquoted text around it.
	s := kwEnd
	for s > 0 && kwEnd-s < maxURLLen && !isURLStop(b[s-1]) {
		s--
	}
	ce := e
	for ce < len(b) && ce-e < maxURLLen && !isURLStop(b[ce]) {
		ce++
	}
	m := match{rule: ruleByID(ruleAzureStorage), start: kwEnd, end: e}
	setLiteral(b, &m, s, ce)
	if !bytes.HasPrefix(b[s:ce], []byte("DefaultEndpointsProtocol=")) && !bytes.HasPrefix(b[s:ce], []byte("BlobEndpoint=")) && !bytes.HasPrefix(b[s:ce], []byte("AccountName=")) {
		m.whole = false
	}
	return m, true
}
