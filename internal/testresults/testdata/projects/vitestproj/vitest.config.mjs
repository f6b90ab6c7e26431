export default { test: { globals: true, includeTaskLocation: true } };
