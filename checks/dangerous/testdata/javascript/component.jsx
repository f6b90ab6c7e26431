// JSX: dangerouslySetInnerHTML is React's innerHTML.
import React from 'react';

export function Comment({ body }) {
  return <div dangerouslySetInnerHTML={{ __html: body }} />; // want: js-inner-html
}

export function Safe({ body }) {
  // dangerouslySetInnerHTML={{ __html: body }} in a comment is not code.
  return (
    <div>
      <p>{body}</p>
      <span dangerouslySetInnerHTML={{ __html: '<b>static</b>' }} />
      <i title="eval(x) document.write(y)">{'el.innerHTML = x'}</i>
    </div>
  );
}
