package provenance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// GitAINotesRef is where git-ai keeps its authorship logs.
const GitAINotesRef = "refs/notes/ai"

// GitAINote is a git-ai authorship log (schema authorship/3.0.0): which
// lines of which files each AI session (or known human) wrote, in the files
// as they were at the commit the note is attached to.
type GitAINote struct {
	Files    []GitAIFile
	Metadata GitAIMetadata
}

// GitAIFile is one file's attestations.
type GitAIFile struct {
	Path         string // relative to the repository root, slash-separated
	Attestations []GitAIAttestation
}

// GitAIAttestation credits lines to one author key: "s_<14hex>::t_<14hex>"
// (an AI session), "h_<14hex>" (a known human) or a bare hash (an AI
// session in the legacy format).
type GitAIAttestation struct {
	Key    string
	Ranges []Range
}

// GitAIMetadata is the JSON section of a note.
type GitAIMetadata struct {
	SchemaVersion string                   `json:"schema_version"`
	BaseCommitSHA string                   `json:"base_commit_sha"`
	Prompts       map[string]gitAIAuthor   `json:"prompts"`
	Sessions      map[string]gitAIAuthor   `json:"sessions"`
	Humans        map[string]gitAIHumanRec `json:"humans"`
}

type gitAIAuthor struct {
	AgentID struct {
		Tool  string `json:"tool"`
		ID    string `json:"id"`
		Model string `json:"model"`
	} `json:"agent_id"`
	HumanAuthor string `json:"human_author"`
}

type gitAIHumanRec struct {
	Author string `json:"author"`
}

// ParseGitAINote parses the text of a git-ai note.
func ParseGitAINote(data []byte) (*GitAINote, error) {
	att, meta, found := bytes.Cut(data, []byte("\n---\n"))
	if !found {
		if bytes.HasPrefix(data, []byte("---\n")) { // no attestations at all
			att, meta, found = nil, data[4:], true
		} else {
			return nil, errors.New("git-ai note: no '---' line between attestations and metadata")
		}
	}
	n := &GitAINote{}
	if err := json.Unmarshal(meta, &n.Metadata); err != nil {
		return nil, fmt.Errorf("git-ai note metadata: %w", err)
	}
	if !strings.HasPrefix(n.Metadata.SchemaVersion, "authorship/") {
		return nil, fmt.Errorf("git-ai note: unknown schema_version %q", n.Metadata.SchemaVersion)
	}
	sc := bufio.NewScanner(bytes.NewReader(att))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "  "):
			if len(n.Files) == 0 {
				return nil, fmt.Errorf("git-ai note line %d: attestation before any file", ln)
			}
			key, spec, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok {
				return nil, fmt.Errorf("git-ai note line %d: want KEY RANGES", ln)
			}
			ranges, err := parseLineSpec(spec)
			if err != nil {
				return nil, fmt.Errorf("git-ai note line %d: %w", ln, err)
			}
			f := &n.Files[len(n.Files)-1]
			f.Attestations = append(f.Attestations, GitAIAttestation{Key: key, Ranges: ranges})
		default:
			path := line
			if unq, err := strconv.Unquote(line); err == nil && strings.HasPrefix(line, `"`) {
				path = unq
			}
			n.Files = append(n.Files, GitAIFile{Path: path})
		}
	}
	return n, sc.Err()
}

// parseLineSpec reads "1-4,9,12-14" (1-based, inclusive).
func parseLineSpec(spec string) ([]Range, error) {
	var out []Range
	for _, part := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("bad line range %q", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("bad line range %q", part)
			}
		}
		r, ok := fromOneBased(a, b)
		if !ok {
			return nil, fmt.Errorf("bad line range %q", part)
		}
		out = append(out, r)
	}
	return normalize(out), nil
}

// author resolves an attestation key to its agent; false for humans and
// unknown keys.
func (n *GitAINote) author(key string) (gitAIAuthor, bool) {
	if strings.HasPrefix(key, "h_") {
		return gitAIAuthor{}, false
	}
	if strings.HasPrefix(key, "s_") {
		session, _, _ := strings.Cut(key, "::")
		a, ok := n.Metadata.Sessions[session]
		return a, ok
	}
	a, ok := n.Metadata.Prompts[key]
	return a, ok
}

// Edits lists the AI-written lines of the note as Edits, one per file and
// session, with files made absolute under root. Lines credited to humans
// are left out.
func (n *GitAINote) Edits(root, commit string, at time.Time) []Edit {
	var out []Edit
	for _, f := range n.Files {
		for _, a := range f.Attestations {
			au, ok := n.author(a.Key)
			if !ok {
				continue
			}
			tool, err := ParseTool(au.AgentID.Tool)
			if err != nil {
				tool = ToolUnknown
			}
			out = append(out, Edit{
				Tool:       tool,
				Model:      au.AgentID.Model,
				Session:    au.AgentID.ID,
				File:       filepath.Join(root, filepath.FromSlash(f.Path)),
				Ranges:     a.Ranges,
				Time:       at,
				Source:     SourceGitAI,
				Confidence: ConfidenceCommitted,
				Commit:     commit,
			})
		}
	}
	return out
}

// ReadGitAINote reads the git-ai note of one commit in the repository at
// root (`git notes --ref=ai show COMMIT`); nil without error when the
// commit has no note.
func ReadGitAINote(ctx context.Context, root, commit string) ([]Edit, error) {
	if strings.HasPrefix(commit, "-") {
		return nil, fmt.Errorf("bad commit %q", commit)
	}
	sha, when, err := commitInfo(ctx, root, commit)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "notes", "--ref=ai", "show", sha)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "no note found") {
			return nil, nil
		}
		return nil, fmt.Errorf("git notes --ref=ai show %s: %w: %s", commit, err, strings.TrimSpace(stderr.String()))
	}
	n, err := ParseGitAINote(out)
	if err != nil {
		return nil, fmt.Errorf("note on %s: %w", sha, err)
	}
	return n.Edits(root, sha, when), nil
}

// RecentGitAINotes reads the git-ai notes of the last n commits reachable
// from HEAD, in one git call. Notes that do not parse are skipped and
// reported in the returned error, after the rest were read.
func RecentGitAINotes(ctx context.Context, root string, n int) ([]Edit, error) {
	if n <= 0 {
		return nil, nil
	}
	// %x1e and %x1f separate records and fields: notes may hold anything
	// but these control characters.
	cmd := exec.CommandContext(ctx, "git", "-C", root, "log", "-n", strconv.Itoa(n),
		"--notes=ai", "--format=%x1e%H%x1f%ct%x1f%N")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git log --notes=ai in %s: %w: %s", root, err, strings.TrimSpace(stderr.String()))
	}
	var edits []Edit
	var bad []string
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		fields := bytes.SplitN(rec, []byte{0x1f}, 3)
		if len(fields) != 3 || len(bytes.TrimSpace(fields[2])) == 0 {
			continue
		}
		sha := string(fields[0])
		secs, _ := strconv.ParseInt(string(fields[1]), 10, 64)
		note, err := ParseGitAINote(bytes.TrimLeft(fields[2], "\n"))
		if err != nil {
			bad = append(bad, sha[:min(len(sha), 12)]+": "+err.Error())
			continue
		}
		edits = append(edits, note.Edits(root, sha, time.Unix(secs, 0))...)
	}
	if len(bad) > 0 {
		return edits, fmt.Errorf("unreadable git-ai notes: %s", strings.Join(bad, "; "))
	}
	return edits, nil
}

func commitInfo(ctx context.Context, root, rev string) (string, time.Time, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "show", "-s", "--format=%H %ct", rev+"^{commit}", "--").Output()
	if err != nil {
		return "", time.Time{}, fmt.Errorf("resolving commit %q in %s: %w", rev, root, err)
	}
	sha, secs, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	n, _ := strconv.ParseInt(secs, 10, 64)
	return sha, time.Unix(n, 0), nil
}
