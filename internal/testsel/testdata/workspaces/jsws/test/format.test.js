import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatSum } from '../src/index.js';

describe('formatSum', () => {
  it('formats a sum', () => {
    assert.equal(formatSum(1, 2), '1 + 2 = 3');
  });

  it.skip('handles negatives later', () => {});
});
