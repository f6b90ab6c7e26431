function total(items) {
  if (!Array.isArray(items)) {
    throw new TypeError('items must be an array'); // THROWS-HERE cart > rejects non-arrays
  }
  return items.reduce((sum, x) => sum + x, 0);
}

module.exports = { total };
