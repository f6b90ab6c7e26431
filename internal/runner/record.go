package runner

import (
	"context"

	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/records"
	"github.com/aisbx/aisbx/internal/sbom"
	"github.com/aisbx/aisbx/internal/testsel"
	"github.com/aisbx/aisbx/internal/version"
)

// sbomFormat is the bill of materials kept beside each record.
const sbomFormat = "cyclonedx-json"

// record builds the audit record of a run: enough to reproduce it (image
// digest, snapshot hash, command) and to say why it ran.
func (r *Runner) record(ctx context.Context, out *Outcome, req Request, changed []string, cmds []records.Command, sel *testsel.Selection) *records.Record {
	rec := &records.Record{
		Version: records.SchemaVersion, ID: out.ID, Time: out.Started, Trigger: req.Trigger,
		Root: r.opts.Root, Status: out.Status, Reason: out.Reason, ExitCode: out.ExitCode,
		DurationMS: out.Duration.Milliseconds(), AisbxdVersion: version.String(),
		Selection: records.FromSelection(sel), Provenance: req.Provenance,
		Dependencies: []records.Dependency{}, Changed: []records.ChangedFile{},
	}
	if len(rec.Provenance) == 0 && r.opts.Provenance != nil {
		rec.Provenance = r.opts.Provenance(changed)
	}
	if rec.Provenance == nil {
		rec.Provenance = []records.Provenance{}
	}
	rec.Tests, rec.Summary = records.FromSummary(out.Summary)
	if rec.Tests == nil {
		rec.Tests = []records.Test{}
	}
	if len(cmds) > 0 {
		rec.Command = cmds[0]
	}
	for i, j := range out.Jobs {
		img := records.Image{Ref: j.Image.Ref, Digest: j.Image.Digest}
		if img.Digest == "" {
			img.Digest = j.Image.ID // a local build has no registry digest; its id pins it
		}
		if i == 0 {
			rec.Image, rec.Profile = img, j.Profile
			rec.Snapshot = records.Snapshot{Hash: j.SnapshotHash, Files: j.Files}
			rec.Output, rec.OutputTruncated = string(j.Output), j.OutputTruncated
		}
		if len(out.Jobs) > 1 {
			cmd := records.Command{}
			if i < len(cmds) {
				cmd = cmds[i]
			}
			rec.Jobs = append(rec.Jobs, records.Job{Profile: j.Profile, Image: img, Command: cmd,
				Status: string(j.Status), Reason: j.Reason, ExitCode: j.ExitCode})
		}
		rec.Workdir = r.workdirOf(j.Profile)
	}
	if ch, err := records.HashChanged(r.opts.Root, changed, req.Overlay); err == nil {
		rec.Changed = ch
	} else {
		r.log.Debug("hashing changed files", "err", err)
	}
	if deps, err := r.opts.Dependencies.Dependencies(ctx, r.opts.Root); err == nil {
		rec.Dependencies = deps
	} else {
		r.log.Debug("reading dependencies", "err", err)
	}
	r.attachSBOM(ctx, rec)
	return rec
}

// attachSBOM keeps the workspace's bill of materials beside the record and
// its hash in it.
func (r *Runner) attachSBOM(ctx context.Context, rec *records.Record) {
	inv, err := inventory.Scan(ctx, r.opts.Root)
	if err != nil || len(inv.Packages()) == 0 {
		return
	}
	data, sum, err := sbom.Encode(ctx, inv, sbomFormat, sbom.Options{})
	if err != nil {
		r.log.Warn("encoding the run's SBOM", "err", err)
		return
	}
	file, err := r.opts.Records.WriteAttachment(rec.ID, sbom.FileName(sbomFormat), data)
	if err != nil {
		r.log.Warn("writing the run's SBOM", "err", err)
		return
	}
	rec.SBOM = &records.SBOM{SHA256: sum, File: file}
}

func (r *Runner) workdirOf(profile string) string {
	if sb, err := r.opts.Sandbox(context.Background()); err == nil {
		return sb.Profiles()[profile].Workdir
	}
	return ""
}
