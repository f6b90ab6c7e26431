export function reverse(s) {
  return [...s].reverse().join('');
}
