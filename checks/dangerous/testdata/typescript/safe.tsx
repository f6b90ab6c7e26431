// Safe TSX: nothing here may be reported.
import * as React from 'react';

export function List({ items }: { items: string[] }): JSX.Element {
  return (
    <ul>
      {items.map((item) => (
        <li key={Math.random()} title="innerHTML">{item}</li>
      ))}
      <li>{'document.write(x)'}</li>
      <pre>{`eval(${items.length})`}</pre>
    </ul>
  );
}
