import '../src/does-not-exist.js'; // LOAD-FAILS-HERE

test('never runs', () => {});
