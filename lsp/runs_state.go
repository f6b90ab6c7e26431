package lsp

// lastRun returns the last run summary of a workspace root, or nil.
func (s *session) lastRun(root string) any {
	return nil
}
