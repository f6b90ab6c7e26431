export const greet = (who) => `hello ${who}`;
