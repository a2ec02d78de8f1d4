// A titled row of cards (Home, My Events, Child events): a heading and a list, one card per item.
import type { ComponentChildren } from 'preact'
import s from './style.module.css'

export interface SectionProps {
  title: string
  /** 'row' scrolls sideways (Home); 'column' stacks (lists of their own screen). */
  layout?: 'row' | 'column'
  children: ComponentChildren
}

export function Section({ title, layout = 'row', children }: SectionProps) {
  const id = 'sec-' + title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return (
    <section class={s.section} aria-labelledby={id}>
      <h2 id={id} class={s.title}>
        {title}
      </h2>
      <ul class={layout === 'row' ? s.row : s.column}>{children}</ul>
    </section>
  )
}
