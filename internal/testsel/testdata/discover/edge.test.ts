import { describe, it, test, expect } from 'vitest';

describe('outer', () => {
  it('first', () => {
    expect(1).toBe(1); // CURSOR-JS-FIRST
  });

  describe.skip(`inner template`, () => {
    test.only('deep "quoted"', () => {});
  });

  it.each([1, 2])('each %i', (n) => {});

  test(`dynamic ${1 + 1}`, () => {});
});

test('top level', async () => {
  const name: string = 'x';
  expect(name).toBe('x');
});

test.todo('later');

function test2(name: string) {}
test2('not a test');
