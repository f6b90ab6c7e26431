package sandbox

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moby/moby/api/types/build"
	"github.com/moby/moby/client"
)

// BuildOptions select what Build makes.
type BuildOptions struct {
	// Workspace whose lockfiles pin the dependencies (default
	// Options.Workspace).
	Workspace string
	// Profiles to build; none: those whose marker files are in Workspace.
	Profiles []string
	// Base overrides every selected profile's base image, e.g.
	// "aisbx-base/go" on a machine that reaches no registry.
	Base string
	// Force rebuilds without the engine's build cache even when the tag
	// exists.
	Force bool
	// Progress receives build progress; it must not block for long.
	Progress func(BuildProgress)
}

// BuildProgress is one step of an image build.
type BuildProgress struct {
	Profile string `json:"profile"`
	Step    int    `json:"step"`  // 1-based; 0 before the first step
	Steps   int    `json:"steps"` // 0 when unknown
	Message string `json:"message"`
	Done    bool   `json:"done"`
}

// Build makes (or reuses) the image of each selected profile: FROM its
// base, a non-root user, the pinned dependencies installed from the
// lockfiles (with the network), a warm build cache where the profile has
// one. The tag is a hash of all of that, so an unchanged image is reused.
func (s *Sandbox) Build(ctx context.Context, o BuildOptions) ([]ImageInfo, error) {
	ws := o.Workspace
	if ws == "" {
		ws = s.opts.Workspace
	}
	names := o.Profiles
	if len(names) == 0 {
		if ws == "" {
			return nil, fmt.Errorf("image build: name a profile or a workspace")
		}
		names = DetectProfiles(ws, s.profiles)
		if len(names) == 0 {
			return nil, fmt.Errorf("image build: no profile matches %s (no go.mod, package.json, pyproject.toml or requirements.txt); pass --profile", ws)
		}
	}
	var out []ImageInfo
	for _, name := range names {
		p, err := s.profile(name)
		if err != nil {
			return out, err
		}
		if o.Base != "" {
			p.Base = o.Base
			p.Image = ""
		}
		info, err := s.buildOne(ctx, p, ws, o)
		if err != nil {
			return out, fmt.Errorf("building the %s image: %w", name, err)
		}
		out = append(out, info)
	}
	return out, nil
}

func (s *Sandbox) buildOne(ctx context.Context, p Profile, ws string, o BuildOptions) (ImageInfo, error) {
	progress := func(bp BuildProgress) {
		if o.Progress != nil {
			bp.Profile = p.Name
			o.Progress(bp)
		}
	}
	if p.Image != "" {
		img, err := s.inspectImage(ctx, p.Image)
		if err != nil {
			return ImageInfo{}, fmt.Errorf("profile %s uses image %s: %w", p.Name, p.Image, err)
		}
		progress(BuildProgress{Message: "using " + p.Image + " as configured", Done: true})
		return ImageInfo{Profile: p.Name, Ref: p.Image, ID: img.ID, Digest: img.Digest, Base: p.Image}, nil
	}
	mounts := activeMounts(p, s.eng.local)
	lockNames, lockData, err := lockfiles(ws, p)
	if err != nil {
		return ImageInfo{}, err
	}
	bid, err := s.baseImageID(ctx, p.Base)
	if err != nil {
		return ImageInfo{}, err
	}
	tag := imageTag(p, bid, mounts, lockNames, lockData)
	if !o.Force {
		if img, err := s.inspectImage(ctx, tag); err == nil {
			progress(BuildProgress{Message: tag + " is up to date", Done: true})
			return s.imageInfo(ctx, p, tag, img, false)
		}
	}
	var snap *Snapshot
	if len(p.Warm) > 0 && ws != "" {
		if snap, err = TakeSnapshot(ctx, ws, nil, s.opts.Exclude); err != nil {
			return ImageInfo{}, err
		}
	}
	dockerfile := generateDockerfile(p, lockNames)
	buildCtx, err := buildContext(dockerfile, lockData, snap)
	if err != nil {
		return ImageInfo{}, err
	}
	progress(BuildProgress{Message: "building " + tag + " from " + p.Base})
	targets := mountTargets(mounts)
	labels := map[string]string{
		labelImageProfile:   p.Name,
		labelImageBase:      p.Base,
		labelImageBaseID:    bid,
		labelImageLockfiles: strings.Join(lockNames, ","),
	}
	res, err := s.eng.cli.ImageBuild(ctx, bytes.NewReader(buildCtx), client.ImageBuildOptions{
		Tags: []string{tag}, Labels: labels, Remove: true, ForceRemove: true, NoCache: o.Force,
		Version: build.BuilderV1, BuildArgs: map[string]*string{"AISBX_MOUNTS": &targets},
	})
	if err != nil {
		return ImageInfo{}, s.eng.wrap("image build", err)
	}
	defer res.Body.Close()
	steps := 0
	if err := readJSONMessages(res.Body, func(m jsonMessage) {
		if m.Stream == "" {
			return
		}
		line := strings.TrimSpace(m.Stream)
		if line == "" {
			return
		}
		if sm := stepRE.FindStringSubmatch(line); sm != nil {
			n, _ := strconv.Atoi(sm[1])
			steps, _ = strconv.Atoi(sm[2])
			progress(BuildProgress{Step: n, Steps: steps, Message: sm[3]})
			return
		}
		progress(BuildProgress{Steps: steps, Message: line})
	}); err != nil {
		return ImageInfo{}, err
	}
	img, err := s.inspectImage(ctx, tag)
	if err != nil {
		return ImageInfo{}, fmt.Errorf("the build ended but %s is missing: %w", tag, err)
	}
	progress(BuildProgress{Step: steps, Steps: steps, Message: "built " + tag, Done: true})
	return s.imageInfo(ctx, p, tag, img, true)
}

var stepRE = regexp.MustCompile(`^Step (\d+)/(\d+) : (.*)$`)

func (s *Sandbox) imageInfo(ctx context.Context, p Profile, tag string, img ImageRef, built bool) (ImageInfo, error) {
	res, err := s.eng.cli.ImageInspect(ctx, img.ID)
	if err != nil {
		return ImageInfo{}, s.eng.wrap("inspecting "+tag, err)
	}
	info := ImageInfo{Profile: p.Name, Ref: tag, ID: img.ID, Digest: img.Digest, Base: p.Base, Size: res.Size, Built: built}
	if res.Config != nil {
		info.BaseID = res.Config.Labels[labelImageBaseID]
		if l := res.Config.Labels[labelImageLockfiles]; l != "" {
			info.Lockfiles = strings.Split(l, ",")
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, res.Created); err == nil {
		info.Created = t
	}
	return info, nil
}

// generateDockerfile writes the recipe of a profile's image. Stages: deps
// (base + user + pinned dependencies), warm (throwaway: the snapshot
// compiled to fill a build cache), final (deps + the warm cache only, so no
// source ends in the image).
func generateDockerfile(p Profile, lockNames []string) string {
	var b strings.Builder
	has := map[string]bool{}
	for _, n := range lockNames {
		has[n] = true
	}
	fmt.Fprintf(&b, "FROM %s AS deps\nUSER root\nARG AISBX_MOUNTS=\"\"\n", p.Base)
	fmt.Fprintf(&b, "RUN mkdir -p %s %s && (grep -q '^aisbx:' /etc/passwd || useradd -u %d -U -M -d /tmp/home -s /bin/sh aisbx 2>/dev/null || adduser -D -H -u %d -h /tmp/home aisbx 2>/dev/null || { echo 'aisbx:x:%d:%d:aisbx:/tmp/home:/bin/sh' >> /etc/passwd && echo 'aisbx:x:%d:' >> /etc/group; })\n",
		depsDir, warmDir, sandboxUID, sandboxUID, sandboxUID, sandboxUID, sandboxUID)
	if len(lockNames) > 0 {
		fmt.Fprintf(&b, "COPY deps/ %s/\n", depsDir)
	}
	fmt.Fprintf(&b, "WORKDIR %s\n", depsDir)
	for _, st := range p.Install {
		if needsMet(st.Needs, lockNames) {
			fmt.Fprintf(&b, "RUN %s\n", st.Run)
		}
	}
	if len(p.Warm) > 0 {
		b.WriteString("\nFROM deps AS warm\n")
		for _, k := range slices.Sorted(maps.Keys(p.Env)) {
			fmt.Fprintf(&b, "ENV %s=%s\n", k, strconv.Quote(p.Env[k]))
		}
		fmt.Fprintf(&b, "RUN chown %d:%d %s && mkdir -p /tmp/home && chown %d:%d /tmp/home\n", sandboxUID, sandboxUID, warmDir, sandboxUID, sandboxUID)
		fmt.Fprintf(&b, "COPY --chown=%d:%d src/ %s/\n", sandboxUID, sandboxUID, p.Workdir)
		fmt.Fprintf(&b, "USER %d:%d\nWORKDIR %s\n", sandboxUID, sandboxUID, p.Workdir)
		for _, w := range p.Warm {
			fmt.Fprintf(&b, "RUN %s\n", w)
		}
		b.WriteString("\nFROM deps\n")
		fmt.Fprintf(&b, "COPY --from=warm %s %s\n", warmDir, warmDir)
	}
	fmt.Fprintf(&b, "USER %d:%d\nWORKDIR %s\n", sandboxUID, sandboxUID, p.Workdir)
	return b.String()
}

func needsMet(needs, have []string) bool {
	for _, n := range needs {
		found := false
		for _, h := range have {
			if ok, _ := path.Match(n, h); ok {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// buildContext is the tar the engine builds from: the Dockerfile, the
// lockfiles under deps/ and the snapshot (without secrets) under src/.
func buildContext(dockerfile string, lock map[string][]byte, snap *Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name string, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Unix(0, 0)}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	if err := add("Dockerfile", []byte(dockerfile)); err != nil {
		return nil, err
	}
	for _, n := range slices.Sorted(maps.Keys(lock)) {
		if err := add("deps/"+n, lock[n]); err != nil {
			return nil, err
		}
	}
	if err := tw.WriteHeader(&tar.Header{Name: "src/", Mode: 0o755, Typeflag: tar.TypeDir, ModTime: time.Unix(0, 0)}); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if snap == nil {
		return buf.Bytes(), nil
	}
	// The snapshot's own tar (rooted at src/) follows: strip the first
	// tar's end-of-archive blocks so the two read as one archive.
	b := buf.Bytes()
	b = b[:len(b)-1024]
	var rest bytes.Buffer
	if _, _, err := snap.writeTar(&rest, "/src", nil); err != nil {
		return nil, err
	}
	return append(b, rest.Bytes()...), nil
}

type jsonMessage struct {
	Stream      string `json:"stream"`
	Status      string `json:"status"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
}

// readJSONMessages reads the engine's JSON message stream (build, import)
// and returns the first error it reports.
func readJSONMessages(r io.Reader, fn func(jsonMessage)) error {
	dec := json.NewDecoder(bufio.NewReader(r))
	var tail []string
	for {
		var m jsonMessage
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading engine output: %w", err)
		}
		if m.Error != "" || m.ErrorDetail != nil {
			msg := m.Error
			if msg == "" {
				msg = m.ErrorDetail.Message
			}
			if len(tail) > 0 {
				return fmt.Errorf("%s\n%s", msg, strings.Join(tail, "\n"))
			}
			return errors.New(msg)
		}
		if s := strings.TrimRight(m.Stream, "\n"); s != "" {
			tail = append(tail, s)
			if len(tail) > 20 {
				tail = tail[1:]
			}
		}
		if fn != nil {
			fn(m)
		}
	}
}
