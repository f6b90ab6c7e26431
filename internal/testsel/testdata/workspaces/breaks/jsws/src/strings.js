export function reverse(s) {
  // Broken on purpose: forgets to reverse.
  return s;
}
