import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatSummary, isGreen, statusView, summaryLine } from '../../src/format';
import type { StatusInput } from '../../src/format';
import type { RunSummary } from '../../src/protocol';

const testdata = (name: string) => JSON.parse(readFileSync(`test/testdata/${name}`, 'utf8'));

const summaries: { cases: { name: string; summary: RunSummary; line: string; green: boolean; formatted: string[] }[] } =
  testdata('summaries.json');
for (const c of summaries.cases) {
  test(`summary: ${c.name}`, () => {
    assert.equal(summaryLine(c.summary), c.line);
    assert.equal(isGreen(c.summary), c.green);
    assert.equal(formatSummary(c.summary), c.formatted.join('\n'));
  });
}

const bars: { cases: { name: string; input: StatusInput; text: string; warning: boolean }[] } = testdata('statusbar.json');
for (const c of bars.cases) {
  test(`status bar: ${c.name}`, () => {
    const v = statusView(c.input);
    assert.equal(v.text, c.text);
    assert.equal(v.warning, c.warning);
    assert.ok(v.tooltip.length > 0);
  });
}

test('status bar tooltip names the engine problem and the pools', () => {
  const noEngine = bars.cases.find((c) => c.name === 'no engine')!;
  assert.match(statusView(noEngine.input).tooltip, /Docker engine not reachable: dial unix/);
  const warm = bars.cases.find((c) => c.name === 'warm pool, last run green')!;
  const tip = statusView(warm.input).tooltip;
  assert.match(tip, /pool go: 2\/2 warm \(\/w\)/);
  assert.doesNotMatch(tip, /\/other/, 'another window\'s workspace leaks into the tooltip');
});
