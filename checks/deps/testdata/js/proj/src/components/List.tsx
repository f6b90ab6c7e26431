// A typical component whose imports all resolve.
import React, { useEffect, useMemo, useState } from 'react'
import { createRoot } from 'react-dom/client'
import debounce from 'lodash/debounce'
import { Button } from '@acme/ui'
import { x } from '@app/utils'
import type { ReactNode } from 'react'

type Item = { id: string; label: string }

export function List({ items, render }: { items: Item[]; render?: (i: Item) => ReactNode }) {
  const [filter, setFilter] = useState('')
  const onChange = useMemo(() => debounce((v: string) => setFilter(v), 150), [])
  useEffect(() => () => onChange.cancel(), [onChange])
  const shown = items.filter((i) => i.label.toLowerCase().includes(filter.toLowerCase()))
  return (
    <div>
      <input onChange={(e) => onChange(e.target.value)} placeholder="filter" />
      <ul>{shown.map((i) => <li key={i.id}>{render ? render(i) : i.label}</li>)}</ul>
      <Button onClick={() => setFilter('')}>clear {x}</Button>
    </div>
  )
}

export function mount(el: HTMLElement, items: Item[]) {
  createRoot(el).render(<List items={items} />)
}
