import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../src/price.js';

describe('total', () => {
  it('sums', () => {
    console.log('log line from a test');
    assert.equal(total([1, 2, 3]), 6);
  });

  it('is wrong on purpose', () => {
    assert.equal(total([1, 2]), 4); // FAILS-HERE total > is wrong on purpose
  });

  it('rejects non-arrays', () => {
    total('nope');
  });

  describe('nested', () => {
    it('deep pass', () => {});
  });
});

test('skipped', { skip: 'not today' }, () => {});

test('todo', { todo: true }, () => {});
