// Bundles the extension (dist/extension.js, vscode-languageclient inlined)
// and, with --tests, each unit test with a stubbed 'vscode' module
// (out/test/*.test.js, run by node --test).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const stub = fileURLToPath(new URL('./test/stub/vscode.ts', import.meta.url));

if (args.has('--tests')) {
  const entryPoints = readdirSync('test/unit')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/unit/${f}`);
  await esbuild.build({
    entryPoints,
    outdir: 'out/test',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    alias: { vscode: stub },
    external: ['node:*'],
    logLevel: 'warning',
  });
} else {
  const options = {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  };
  if (args.has('--watch')) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    await esbuild.build(options);
  }
}
