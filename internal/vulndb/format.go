package vulndb

import (
	"encoding/binary"
	"time"
)

// One file per ecosystem, "<ecosystem>.osvdb":
//
//	"AISBXOSV"                      8-byte magic
//	advisory JSON, back to back     the data; each advisory stored once
//	index                           u32 count, count × u32 entry offsets,
//	                                then entries sorted by name:
//	                                u16 name length, name, u32 n,
//	                                n × (u64 data offset, u32 length)
//	meta JSON                       Meta
//	footer (24 bytes)               u64 index offset, u64 index length,
//	                                u32 meta length, "OSV1"
//
// The footer lets the importer stream advisories straight into the file
// and write the index last; a reader loads the footer, the index and the
// meta, and binary-searches the index in place without building a map,
// so opening costs one read of the index however many packages there are.

const (
	fileMagic   = "AISBXOSV"
	footerMagic = "OSV1"
	footerSize  = 8 + 8 + 4 + 4
	fileSuffix  = ".osvdb"
)

// Meta describes one ecosystem's store file.
type Meta struct {
	Ecosystem  string    `json:"ecosystem"`
	Source     string    `json:"source"` // the file or URL it was imported from
	ImportedAt time.Time `json:"imported_at"`
	Advisories int       `json:"advisories"`
	Packages   int       `json:"packages"`
	// NewestModified is the latest "modified" time among the advisories:
	// how fresh the data is, whenever it was imported.
	NewestModified time.Time `json:"newest_modified"`
	// ETag and LastModified come from the download, for conditional
	// updates.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	// Bytes is the store file's size.
	Bytes int64 `json:"bytes"`
}

// Ecosystems are the OSV ecosystems aisbx stores and matches.
var Ecosystems = []string{"Go", "PyPI", "npm"}

func putFooter(indexOff, indexLen uint64, metaLen uint32) []byte {
	b := make([]byte, footerSize)
	binary.LittleEndian.PutUint64(b[0:], indexOff)
	binary.LittleEndian.PutUint64(b[8:], indexLen)
	binary.LittleEndian.PutUint32(b[16:], metaLen)
	copy(b[20:], footerMagic)
	return b
}
