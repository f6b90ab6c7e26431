package fixable

import "os"

func write(dir string) {
	os.WriteFile(dir+"/a", []byte("x"), 0666)
	os.MkdirAll(dir, 0o777)
}
