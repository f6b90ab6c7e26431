package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The methods below are part of protocol.Server but not of what aisbx does.
// Requests answer "method not found"; notifications are accepted and
// ignored. They are not advertised in initialize, so well-behaved clients
// never send them.

var _ protocol.Server = (*session)(nil)

func notImplemented(method string) error {
	return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "aisbx does not implement %s", method)
}

func (s *session) CodeLensResolve(ctx context.Context, params *protocol.CodeLens) (*protocol.CodeLens, error) {
	return nil, notImplemented(protocol.MethodCodeLensResolve)
}

func (s *session) ColorPresentation(ctx context.Context, params *protocol.ColorPresentationParams) ([]protocol.ColorPresentation, error) {
	return nil, notImplemented(protocol.MethodTextDocumentColorPresentation)
}

func (s *session) Completion(ctx context.Context, params *protocol.CompletionParams) (*protocol.CompletionList, error) {
	return nil, notImplemented(protocol.MethodTextDocumentCompletion)
}

func (s *session) CompletionResolve(ctx context.Context, params *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	return nil, notImplemented(protocol.MethodCompletionItemResolve)
}

func (s *session) Declaration(ctx context.Context, params *protocol.DeclarationParams) ([]protocol.Location, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDeclaration)
}

func (s *session) Definition(ctx context.Context, params *protocol.DefinitionParams) ([]protocol.Location, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDefinition)
}

func (s *session) DocumentColor(ctx context.Context, params *protocol.DocumentColorParams) ([]protocol.ColorInformation, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDocumentColor)
}

func (s *session) DocumentHighlight(ctx context.Context, params *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDocumentHighlight)
}

func (s *session) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDocumentLink)
}

func (s *session) DocumentLinkResolve(ctx context.Context, params *protocol.DocumentLink) (*protocol.DocumentLink, error) {
	return nil, notImplemented(protocol.MethodDocumentLinkResolve)
}

func (s *session) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) ([]interface{}, error) {
	return nil, notImplemented(protocol.MethodTextDocumentDocumentSymbol)
}

func (s *session) FoldingRanges(ctx context.Context, params *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	return nil, notImplemented(protocol.MethodTextDocumentFoldingRange)
}

func (s *session) Formatting(ctx context.Context, params *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notImplemented(protocol.MethodTextDocumentFormatting)
}

func (s *session) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	return nil, notImplemented(protocol.MethodTextDocumentHover)
}

func (s *session) Implementation(ctx context.Context, params *protocol.ImplementationParams) ([]protocol.Location, error) {
	return nil, notImplemented(protocol.MethodTextDocumentImplementation)
}

func (s *session) OnTypeFormatting(ctx context.Context, params *protocol.DocumentOnTypeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notImplemented(protocol.MethodTextDocumentOnTypeFormatting)
}

func (s *session) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (*protocol.Range, error) {
	return nil, notImplemented(protocol.MethodTextDocumentPrepareRename)
}

func (s *session) RangeFormatting(ctx context.Context, params *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	return nil, notImplemented(protocol.MethodTextDocumentRangeFormatting)
}

func (s *session) References(ctx context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	return nil, notImplemented(protocol.MethodTextDocumentReferences)
}

func (s *session) Rename(ctx context.Context, params *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	return nil, notImplemented(protocol.MethodTextDocumentRename)
}

func (s *session) SignatureHelp(ctx context.Context, params *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	return nil, notImplemented(protocol.MethodTextDocumentSignatureHelp)
}

func (s *session) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	return nil, notImplemented(protocol.MethodWorkspaceSymbol)
}

func (s *session) TypeDefinition(ctx context.Context, params *protocol.TypeDefinitionParams) ([]protocol.Location, error) {
	return nil, notImplemented(protocol.MethodTextDocumentTypeDefinition)
}

func (s *session) WillSave(ctx context.Context, params *protocol.WillSaveTextDocumentParams) error {
	return nil
}

func (s *session) WillSaveWaitUntil(ctx context.Context, params *protocol.WillSaveTextDocumentParams) ([]protocol.TextEdit, error) {
	return nil, notImplemented(protocol.MethodTextDocumentWillSaveWaitUntil)
}

// ShowDocument and CodeLensRefresh are client methods that the library
// lists on the server side; the server calls them with protocol.Call.
func (s *session) ShowDocument(ctx context.Context, params *protocol.ShowDocumentParams) (*protocol.ShowDocumentResult, error) {
	return nil, notImplemented(protocol.MethodShowDocument)
}

func (s *session) CodeLensRefresh(ctx context.Context) error {
	return notImplemented(protocol.MethodCodeLensRefresh)
}

func (s *session) SemanticTokensRefresh(ctx context.Context) error {
	return notImplemented(protocol.MethodSemanticTokensRefresh)
}

func (s *session) WillCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notImplemented(protocol.MethodWillCreateFiles)
}

func (s *session) DidCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) error {
	return nil
}

func (s *session) WillRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notImplemented(protocol.MethodWillRenameFiles)
}

func (s *session) DidRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) error {
	return nil
}

func (s *session) WillDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) (*protocol.WorkspaceEdit, error) {
	return nil, notImplemented(protocol.MethodWillDeleteFiles)
}

func (s *session) DidDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) error {
	return nil
}

func (s *session) PrepareCallHierarchy(ctx context.Context, params *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	return nil, notImplemented(protocol.MethodTextDocumentPrepareCallHierarchy)
}

func (s *session) IncomingCalls(ctx context.Context, params *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	return nil, notImplemented(protocol.MethodCallHierarchyIncomingCalls)
}

func (s *session) OutgoingCalls(ctx context.Context, params *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	return nil, notImplemented(protocol.MethodCallHierarchyOutgoingCalls)
}

func (s *session) SemanticTokensFull(ctx context.Context, params *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	return nil, notImplemented(protocol.MethodSemanticTokensFull)
}

func (s *session) SemanticTokensFullDelta(ctx context.Context, params *protocol.SemanticTokensDeltaParams) (interface{}, error) {
	return nil, notImplemented(protocol.MethodSemanticTokensFullDelta)
}

func (s *session) SemanticTokensRange(ctx context.Context, params *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	return nil, notImplemented(protocol.MethodSemanticTokensRange)
}

func (s *session) LinkedEditingRange(ctx context.Context, params *protocol.LinkedEditingRangeParams) (*protocol.LinkedEditingRanges, error) {
	return nil, notImplemented(protocol.MethodLinkedEditingRange)
}

func (s *session) Moniker(ctx context.Context, params *protocol.MonikerParams) ([]protocol.Moniker, error) {
	return nil, notImplemented(protocol.MethodMoniker)
}

// Request is where the library sends methods it does not know; handle
// answers those before they get here.
func (s *session) Request(ctx context.Context, method string, params interface{}) (interface{}, error) {
	return nil, notImplemented(method)
}
