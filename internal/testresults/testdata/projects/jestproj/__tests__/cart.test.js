const { total } = require('../src/cart');

describe('cart', () => {
  test('sums', () => {
    expect(total([1, 2, 3])).toBe(6);
  });

  test('is wrong on purpose', () => {
    expect(total([1, 2])).toBe(4); // FAILS-HERE cart > is wrong on purpose
  });

  test('rejects non-arrays', () => {
    total('nope');
  });

  describe('nested', () => {
    it('deep pass', () => {});
  });

  test.skip('skipped', () => {});
  test.todo('todo');
});
