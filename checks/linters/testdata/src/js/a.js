var unused = 1;
const s = "😀"; if (s == "x") { undefinedFn(); }
let y = 2; console.log(y);
