import { greet } from './app';

describe('greet', () => {
  test('shouts', () => {
    expect(greet('bob')).toBe('HELLO BOB!');
  });
});
