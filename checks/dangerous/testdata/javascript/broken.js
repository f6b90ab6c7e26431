// A file that does not parse; the parser recovers and the rules still run.
const cp = require('child_process');

function half(cmd {
  cp.exec(cmd); // want: js-child-process-exec
}

const x = = 3;
eval(userInput); // want: js-eval
}}}
document.write(userHtml); // want: js-document-write
