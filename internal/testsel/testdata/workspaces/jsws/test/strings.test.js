import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reverse } from '../src/strings.js';

describe('strings', () => {
  describe('reverse', () => {
    it('reverses ascii', () => {
      assert.equal(reverse('abc'), 'cba'); // FAILS-HERE with breaks/jsws applied
    });
    it('keeps the empty string', () => {
      assert.equal(reverse(''), '');
    });
  });
});
