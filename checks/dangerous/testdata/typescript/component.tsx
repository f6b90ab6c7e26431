// TSX: JSX inside TypeScript.
import * as React from 'react';

type Props = { html: string; title?: string };

export function Article({ html, title }: Props): JSX.Element {
  const ref = React.useRef<HTMLDivElement>(null);
  React.useEffect(() => {
    if (ref.current) ref.current.innerHTML = html; // want: js-inner-html
  }, [html]);
  return (
    <section>
      <h1>{title ?? 'eval(x)'}</h1>
      <div dangerouslySetInnerHTML={{ __html: html }} /> {/* want: js-inner-html */}
      <div dangerouslySetInnerHTML={{ __html: '<hr/>' }} />
      <div ref={ref} />
    </section>
  );
}

export function Csrf(): JSX.Element {
  const csrfToken = Math.random().toString(36); // want: js-insecure-random
  return <input type="hidden" value={csrfToken} />;
}
