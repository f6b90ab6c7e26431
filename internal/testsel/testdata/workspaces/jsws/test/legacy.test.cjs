const test = require('node:test');
const assert = require('node:assert/strict');
const { quadruple } = require('../lib/legacy.cjs');

test('quadruple', () => {
  assert.equal(quadruple(3), 12);
});
