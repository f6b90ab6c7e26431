const js = require("@eslint/js");
module.exports = [
  js.configs.recommended,
  { languageOptions: { sourceType: "commonjs" }, rules: { "no-var": "error", "prefer-const": "warn", eqeqeq: "error" } },
];
