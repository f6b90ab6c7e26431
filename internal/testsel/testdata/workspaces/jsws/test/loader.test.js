import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../src/loader.js';

test('loads the hello plugin', async () => {
  const plugin = await load('hello');
  assert.equal(plugin.greet('you'), 'hello you');
});
