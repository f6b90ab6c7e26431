package dangerous

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/aisbx/aisbx/checks"
)

// jsRule handles a call or new expression whose callee resolved to qn.
type jsRule func(a *jsFile, c jsCall, args []sitter.Node, qn string)

var jsCallRules = map[string]jsRule{
	"eval":                       jsCodeArg("js-eval", 0, "eval() of a non-literal expression"),
	"Function":                   (*jsFile).newFunction,
	"child_process.exec":         jsCodeArg("js-child-process-exec", 0, "child_process.exec runs a command built at run time through a shell"),
	"child_process.execSync":     jsCodeArg("js-child-process-exec", 0, "child_process.execSync runs a command built at run time through a shell"),
	"child_process.spawn":        (*jsFile).spawnShell,
	"child_process.spawnSync":    (*jsFile).spawnShell,
	"child_process.execFile":     (*jsFile).spawnShell,
	"child_process.execFileSync": (*jsFile).spawnShell,
	"child_process.fork":         (*jsFile).spawnShell,
	"vm.runInThisContext":        jsCodeArg("js-vm-run", 0, "vm.runInThisContext of code built at run time"),
	"vm.runInNewContext":         jsCodeArg("js-vm-run", 0, "vm.runInNewContext of code built at run time"),
	"vm.runInContext":            jsCodeArg("js-vm-run", 0, "vm.runInContext of code built at run time"),
	"vm.compileFunction":         jsCodeArg("js-vm-run", 0, "vm.compileFunction of code built at run time"),
	"vm.Script":                  jsCodeArg("js-vm-run", 0, "new vm.Script of code built at run time"),
	"setTimeout":                 (*jsFile).stringTimer,
	"setInterval":                (*jsFile).stringTimer,
	"document.write":             jsAnyArg("js-document-write", "document.write of a non-literal value"),
	"document.writeln":           jsAnyArg("js-document-write", "document.writeln of a non-literal value"),
	"Math.random":                (*jsFile).insecureRandom,
}

func (a *jsFile) check() {
	for _, c := range a.calls {
		callee := c.name
		if !c.isNew {
			callee = field(c.call, "function")
		}
		args := namedChildren(c.args)
		if !c.isNew && kind(callee) == "member_expression" && a.s.text(c.name) == "insertAdjacentHTML" {
			if len(args) > 1 && !a.isLiteral(args[1], 0) {
				a.add("js-inner-html", c.call, "insertAdjacentHTML with a non-literal value")
			}
			continue
		}
		qn := a.qualify(callee)
		if rule, ok := jsCallRules[qn]; ok {
			rule(a, c, args, qn)
		}
	}
	for _, s := range a.sets {
		a.checkSet(s[0], a.s.text(s[1]), s[2])
	}
	for _, p := range a.pairs {
		pair, key, value := p[0], a.s.text(p[1]), p[2]
		switch {
		case key == "rejectUnauthorized" && kind(value) == "false":
			a.add("js-tls-reject-unauthorized", pair, "rejectUnauthorized: false accepts any certificate")
		case key == "NODE_TLS_REJECT_UNAUTHORIZED" && a.isZero(value):
			a.add("js-node-tls-reject-unauthorized", pair, "")
		}
	}
	for _, obj := range a.jsx {
		for _, p := range namedChildren(obj) {
			if kind(p) == "pair" && a.s.text(field(p, "key")) == "__html" && !a.isLiteral(field(p, "value"), 0) {
				a.add("js-inner-html", p, "dangerouslySetInnerHTML with a non-literal value")
			}
		}
	}
}

func (a *jsFile) checkSet(set sitter.Node, prop string, value sitter.Node) {
	switch prop {
	case "innerHTML", "outerHTML":
		if a.isLiteral(value, 0) {
			return
		}
		var fixes []checks.Fix
		left := field(set, "left")
		if p := field(left, "property"); prop == "innerHTML" && kind(p) == "property_identifier" {
			start, end := span(p)
			fixes = append(fixes, replaceFix("Use textContent (renders the value as text)", start, end, "textContent", false))
		}
		a.add("js-inner-html", set, prop+" set from a non-literal value", fixes...)
	case "rejectUnauthorized":
		if kind(value) == "false" {
			a.add("js-tls-reject-unauthorized", set, "rejectUnauthorized = false accepts any certificate")
		}
	case "NODE_TLS_REJECT_UNAUTHORIZED":
		if a.isZero(value) && a.qualify(field(field(set, "left"), "object")) == "process.env" {
			a.add("js-node-tls-reject-unauthorized", set, "")
		}
	}
}

func jsCodeArg(id string, i int, what string) jsRule {
	return func(a *jsFile, c jsCall, args []sitter.Node, _ string) {
		if i < len(args) && !a.isLiteral(args[i], 0) {
			a.add(id, c.call, what)
		}
	}
}

func jsAnyArg(id, what string) jsRule {
	return func(a *jsFile, c jsCall, args []sitter.Node, _ string) {
		for _, arg := range args {
			if !a.isLiteral(arg, 0) {
				a.add(id, c.call, what)
				return
			}
		}
	}
}

func (a *jsFile) newFunction(c jsCall, args []sitter.Node, _ string) {
	for _, arg := range args {
		if !a.isLiteral(arg, 0) {
			a.add("js-new-function", c.call, "Function constructor with code built at run time")
			return
		}
	}
}

// spawnShell flags spawn/execFile/fork with an options object whose shell
// is on: the argument array is then joined and parsed by a shell.
func (a *jsFile) spawnShell(c jsCall, args []sitter.Node, qn string) {
	for _, arg := range args {
		obj := unwrapTS(arg)
		if kind(obj) == "identifier" {
			if v, ok := a.constDecl(obj); ok {
				obj = unwrapTS(v)
			}
		}
		if kind(obj) != "object" {
			continue
		}
		for _, p := range namedChildren(obj) {
			if kind(p) != "pair" || a.s.text(field(p, "key")) != "shell" {
				continue
			}
			switch v := field(p, "value"); kind(v) {
			case "true", "string", "template_string":
				a.add("js-spawn-shell", c.call, qn+" with shell: "+a.s.text(v))
				return
			}
		}
	}
}

// stringTimer flags timers given code as a string.
func (a *jsFile) stringTimer(c jsCall, args []sitter.Node, qn string) {
	if len(args) == 0 {
		return
	}
	code := args[0]
	switch kind(code) {
	case "string", "template_string", "binary_expression":
	case "identifier":
		v, ok := a.constDecl(code)
		if !ok || (kind(v) != "string" && kind(v) != "template_string") {
			return
		}
	default:
		return
	}
	if kind(code) == "binary_expression" && !a.hasString(code) {
		return
	}
	var fixes []checks.Fix
	if kind(code) == "string" {
		body := a.stringValue(code)
		if !strings.ContainsAny(body, "\\\n") && strings.TrimSpace(body) != "" {
			start, end := span(code)
			fixes = append(fixes, replaceFix("Pass a function", start, end, "() => { "+body+" }", false))
		}
	}
	a.add("js-string-timer", c.call, qn+" with a string evaluates it as code", fixes...)
}

func (a *jsFile) insecureRandom(c jsCall, _ []sitter.Node, _ string) {
	if anyName(a.contextNames(c.call), secretName) {
		a.add("js-insecure-random", c.call, "Math.random() is predictable and used for a secret")
	}
}
