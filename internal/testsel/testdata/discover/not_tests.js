test('this file is not a test file by name', () => {});
