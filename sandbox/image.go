package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// imageRepo is the repository of every image aisbx builds:
// aisbx/<profile>:<hash>.
const imageRepo = "aisbx/"

// ImageInfo describes one aisbx image.
type ImageInfo struct {
	Profile   string    `json:"profile"`
	Ref       string    `json:"ref"`
	ID        string    `json:"id"`
	Digest    string    `json:"digest,omitempty"`
	Base      string    `json:"base"`
	BaseID    string    `json:"base_id,omitempty"`
	Lockfiles []string  `json:"lockfiles,omitempty"`
	Size      int64     `json:"size"`
	Created   time.Time `json:"created"`
	// Built is true when Build made it now, false when it was reused.
	Built bool `json:"built"`
}

// lockfiles returns the workspace's files matching p.Lockfiles, sorted,
// with their contents.
func lockfiles(workspace string, p Profile) ([]string, map[string][]byte, error) {
	files := map[string][]byte{}
	var names []string
	if workspace == "" {
		return nil, files, nil
	}
	for _, pat := range p.Lockfiles {
		matches, err := filepath.Glob(filepath.Join(workspace, pat))
		if err != nil {
			return nil, nil, fmt.Errorf("lockfile pattern %q: %w", pat, err)
		}
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			b, err := os.ReadFile(m)
			if err != nil {
				return nil, nil, fmt.Errorf("reading lockfile: %w", err)
			}
			name := filepath.Base(m)
			if _, dup := files[name]; !dup {
				names = append(names, name)
			}
			files[name] = b
		}
	}
	sort.Strings(names)
	return names, files, nil
}

// imageTag derives the tag of p's image for a workspace from everything
// that goes into it: the base ref and its image ID, the build recipe, the
// active mounts and the lockfiles. Change any and the tag changes.
func imageTag(p Profile, baseID string, mounts []Mount, names []string, files map[string][]byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "aisbx-image-v1\x00%s\x00%s\x00%s\x00", p.Base, baseID, p.Workdir)
	for _, st := range p.Install {
		fmt.Fprintf(h, "install\x00%s\x00%s\x00", st.Run, strings.Join(st.Needs, ","))
	}
	for _, w := range p.Warm {
		fmt.Fprintf(h, "warm\x00%s\x00", w)
	}
	for _, k := range slices.Sorted(maps.Keys(p.Env)) {
		fmt.Fprintf(h, "env\x00%s=%s\x00", k, p.Env[k])
	}
	fmt.Fprintf(h, "mounts\x00%s\x00", mountTargets(mounts))
	for _, n := range names {
		fmt.Fprintf(h, "lock\x00%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	return imageRepo + p.Name + ":" + hex.EncodeToString(h.Sum(nil))[:16]
}

// baseImageID returns the local image ID of a base ref, or "" when the
// engine does not have it (a build would pull it). Cached briefly.
func (s *Sandbox) baseImageID(ctx context.Context, ref string) (string, error) {
	s.baseMu.Lock()
	if b, ok := s.baseIDs[ref]; ok && time.Since(b.when) < 10*time.Second {
		s.baseMu.Unlock()
		return b.id, nil
	}
	s.baseMu.Unlock()
	res, err := s.eng.cli.ImageInspect(ctx, ref)
	id := ""
	switch {
	case err == nil:
		id = res.ID
	case cerrdefs.IsNotFound(err):
	default:
		return "", s.eng.wrap("inspecting base image "+ref, err)
	}
	s.baseMu.Lock()
	s.baseIDs[ref] = baseID{id: id, when: time.Now()}
	s.baseMu.Unlock()
	return id, nil
}

// ImageFor resolves the image a run of profile in workspace uses. Its
// error matches ErrImageNotBuilt when `aisbxd image build` is needed.
func (s *Sandbox) ImageFor(ctx context.Context, profile, workspace string) (ImageRef, error) {
	p, err := s.profile(profile)
	if err != nil {
		return ImageRef{}, err
	}
	ref := p.Image
	if ref == "" {
		ref, _, err = s.tagFor(ctx, p, workspace)
		if err != nil {
			return ImageRef{}, err
		}
	}
	img, err := s.inspectImage(ctx, ref)
	if cerrdefs.IsNotFound(err) {
		if p.Image != "" {
			return ImageRef{}, fmt.Errorf("%w: profile %s uses image %s, which the engine does not have", ErrImageNotBuilt, p.Name, ref)
		}
		return ImageRef{}, fmt.Errorf("%w: no %s image for %s (its lockfiles or base changed, or it was never built): run `aisbxd image build --profile %s --dir %s`",
			ErrImageNotBuilt, p.Name, displayDir(workspace), p.Name, displayDir(workspace))
	}
	return img, err
}

func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

func (s *Sandbox) tagFor(ctx context.Context, p Profile, workspace string) (string, []string, error) {
	names, files, err := lockfiles(workspace, p)
	if err != nil {
		return "", nil, err
	}
	bid, err := s.baseImageID(ctx, p.Base)
	if err != nil {
		return "", nil, err
	}
	return imageTag(p, bid, activeMounts(p, s.eng.local), names, files), names, nil
}

func (s *Sandbox) inspectImage(ctx context.Context, ref string) (ImageRef, error) {
	res, err := s.eng.cli.ImageInspect(ctx, ref)
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return ImageRef{}, err
		}
		return ImageRef{}, s.eng.wrap("inspecting image "+ref, err)
	}
	out := ImageRef{Ref: ref, ID: res.ID}
	if len(res.RepoDigests) > 0 {
		out.Digest = res.RepoDigests[0]
	}
	return out, nil
}

// Images lists the images aisbx built, newest first.
func (s *Sandbox) Images(ctx context.Context) ([]ImageInfo, error) {
	f := client.Filters{}
	f.Add("label", labelImageProfile)
	res, err := s.eng.cli.ImageList(ctx, client.ImageListOptions{Filters: f})
	if err != nil {
		return nil, s.eng.wrap("listing images", err)
	}
	var out []ImageInfo
	for _, im := range res.Items {
		info := ImageInfo{
			Profile: im.Labels[labelImageProfile], ID: im.ID, Base: im.Labels[labelImageBase], BaseID: im.Labels[labelImageBaseID],
			Size: im.Size, Created: time.Unix(im.Created, 0),
		}
		if l := im.Labels[labelImageLockfiles]; l != "" {
			info.Lockfiles = strings.Split(l, ",")
		}
		if len(im.RepoDigests) > 0 {
			info.Digest = im.RepoDigests[0]
		}
		if len(im.RepoTags) == 0 {
			info.Ref = "<none>"
			out = append(out, info)
			continue
		}
		for _, t := range im.RepoTags {
			info.Ref = t
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.After(out[j].Created)
		}
		return out[i].Ref < out[j].Ref
	})
	return out, nil
}

// ImportRootfs makes an image from a root filesystem tarball (`docker
// import`), the air-gapped route to a base image. changes are Dockerfile
// instructions applied to it, e.g. "ENV PATH=/usr/local/bin:/usr/bin:/bin".
func (s *Sandbox) ImportRootfs(ctx context.Context, rootfs io.Reader, ref string, changes []string) (ImageRef, error) {
	if ref == "" {
		return ImageRef{}, fmt.Errorf("import: name the image (e.g. aisbx-base/python:latest)")
	}
	rc, err := s.eng.cli.ImageImport(ctx, client.ImageImportSource{Source: rootfs, SourceName: "-"}, ref,
		client.ImageImportOptions{Changes: changes, Message: "imported by aisbx"})
	if err != nil {
		return ImageRef{}, s.eng.wrap("importing "+ref, err)
	}
	defer rc.Close()
	if err := readJSONMessages(rc, nil); err != nil {
		return ImageRef{}, fmt.Errorf("importing %s: %w", ref, err)
	}
	return s.inspectImage(ctx, ref)
}
