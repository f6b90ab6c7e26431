import { test } from 'node:test';

test('never runs', () => {});

syntax error here // LOAD-FAILS-HERE
