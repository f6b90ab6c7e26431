package deps

import (
	"time"
)

// envMaxAge bounds how long a workspace snapshot (the manifests, lockfiles,
// virtualenvs and node_modules one file's imports resolve against) is reused
// without a stat of each of its files. Within it, a run costs no system
// call; DependsOn ends it early when the caller reports a relevant change.
const envMaxAge = time.Second

type envEntry struct {
	v   any
	gen int64
	at  time.Time
}

// memoEnv returns the snapshot stored under key, building it anew when it
// is older than envMaxAge or a change was reported since.
func (c *Check) memoEnv(key string, build func() any) any {
	gen := c.gen.Load()
	if e, ok := c.envs.Load(key); ok {
		if ee := e.(*envEntry); ee.gen == gen && time.Since(ee.at) < envMaxAge {
			return ee.v
		}
	}
	v := build()
	c.envs.Store(key, &envEntry{v: v, gen: gen, at: time.Now()})
	return v
}

type goEnvResult struct {
	env *goEnv
	err error
}

func (c *Check) goEnvMemo(dir, root string) (*goEnv, error) {
	r := c.memoEnv("go\x00"+dir+"\x00"+root, func() any {
		env, err := c.goEnvFor(dir, root)
		return goEnvResult{env, err}
	}).(goEnvResult)
	return r.env, r.err
}

func (c *Check) pyEnvMemo(dir, root string) *pyEnv {
	return c.memoEnv("py\x00"+dir+"\x00"+root, func() any { return c.pyEnvFor(dir, root) }).(*pyEnv)
}

func (c *Check) jsEnvMemo(dir, root string) *jsEnv {
	return c.memoEnv("js\x00"+dir+"\x00"+root, func() any { return c.jsEnvFor(dir, root) }).(*jsEnv)
}
