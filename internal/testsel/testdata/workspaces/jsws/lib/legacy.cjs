const { twice } = require('./util.cjs');

module.exports.quadruple = (x) => twice(twice(x));
