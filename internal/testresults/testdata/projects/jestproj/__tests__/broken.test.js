require('../src/does-not-exist'); // LOAD-FAILS-HERE

test('never runs', () => {});
