package watcher

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// statEntry stats one entry of an open directory relative to the
// directory's descriptor: cheaper than lstat on the full path, which the kernel would
// walk again for each of a directory's files.
func statEntry(dirfd int, e os.DirEntry, now time.Time) (fileStat, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileStat{}, false
	}
	fs := fileStat{size: st.Size, mtime: st.Mtim.Nano(), ino: st.Ino}
	fs.racy = now.UnixNano()-fs.mtime < int64(racyWindow)
	return fs, true
}
