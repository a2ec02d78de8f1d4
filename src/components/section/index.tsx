// A titled row of cards (Home, My Events, Child events): a heading and a list, one card per item. Its styles are
// in src/styles/critical.css: Home's first screen is made of sections, and a stylesheet of their own would be a
// request the first screen waits on.
import type { ComponentChildren } from 'preact'

export interface SectionProps {
  title: string
  /** 'row' scrolls sideways (Home); 'column' stacks (lists of their own screen). */
  layout?: 'row' | 'column'
  children: ComponentChildren
}

export function Section({ title, layout = 'row', children }: SectionProps) {
  const id = 'sec-' + title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return (
    <section class="section" aria-labelledby={id}>
      <h2 id={id} class="section-title">
        {title}
      </h2>
      <ul class={`section-${layout}`}>{children}</ul>
    </section>
  )
}
