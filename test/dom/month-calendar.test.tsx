// MonthCalendar: structure, labels, dots, tooltip, selection, and use without a pointer.
import { render } from 'preact'
import { useState } from 'preact/hooks'
import { act } from 'preact/test-utils'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { EventState } from '../../contract/constants.ts'
import type { EventSummary } from '../../contract/types.ts'
import { MonthCalendar, type MonthCalendarProps } from '../../src/components/month-calendar/index.tsx'
import s from '../../src/components/month-calendar/style.module.css'
import { addMonths, monthOfKey, type Month } from '../../src/lib/calendar.ts'
import { eventSummary, newEventId } from '../fixtures/events.ts'

function ev(state: EventState, dates: string[]): EventSummary {
  const id = newEventId()
  return eventSummary({ id, name: `E${id}`, dates, venue: '', state })
}

const NOV_2026: Month = { year: 2026, month: 11 }
const TODAY = '2026-11-18'
const EVENTS = [
  ev('REGISTRATION_OPEN', ['2026-11-21T04:30:00Z']),
  ev('UPCOMING', ['2026-11-21T13:00:00Z']),
  ev('ONGOING', ['2026-11-10T04:30:00Z']), // past day
  ...(['REGISTRATION_OPEN', 'TICKET_OPEN', 'COMPLETED', 'UPCOMING'] as const).map((st) => ev(st, ['2026-11-25T05:00:00Z'])),
  ev('UPCOMING', ['2026-11-21T18:45:00Z']), // 00:15 IST on the 22nd, not the 21st
]

let root: HTMLElement
beforeEach(() => {
  root = document.createElement('div')
  document.body.append(root)
})
afterEach(() => {
  render(null, root)
  root.remove()
})

function show(over: Partial<MonthCalendarProps> = {}) {
  const props: MonthCalendarProps = {
    month: NOV_2026,
    events: EVENTS,
    selectedKey: '2026-11-21',
    todayKey: TODAY,
    onSelect: vi.fn(),
    onPrev: vi.fn(),
    onNext: vi.fn(),
    onToday: vi.fn(),
    ...over,
  }
  act(() => render(<MonthCalendar {...props} />, root))
  return props
}
const day = (key: string) => root.querySelector<HTMLButtonElement>(`button[data-key="${key}"]`)!
const button = (name: string) => [...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent) === name)!

describe('structure', () => {
  test('title, labelled month controls, 7 weekday headers and 42 day buttons in 6 rows', () => {
    show()
    expect(root.querySelector('h2')!.textContent).toBe('November 2026')
    expect(button('Previous month')).toBeTruthy()
    expect(button('Next month')).toBeTruthy()
    expect(button('Today')).toBeTruthy()
    const grid = root.querySelector('[role="grid"]')!
    expect(grid.getAttribute('aria-label')).toBe('November 2026')
    expect([...grid.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent)).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'])
    expect(grid.querySelectorAll('[role="row"]')).toHaveLength(7)
    expect(grid.querySelectorAll('[role="gridcell"] > button')).toHaveLength(42)
    // November 2026 starts on a Sunday: the first cell is the 1st.
    expect(grid.querySelector('[role="gridcell"] > button')!.getAttribute('data-key')).toBe('2026-11-01')
  })

  test('day labels name the date and the count', () => {
    show()
    expect(day('2026-11-21').getAttribute('aria-label')).toBe('Saturday 21 November 2026, 2 events')
    expect(day('2026-11-22').getAttribute('aria-label')).toBe('Sunday 22 November 2026, 1 event')
    expect(day('2026-11-23').getAttribute('aria-label')).toBe('Monday 23 November 2026, no events')
    expect(day('2026-12-12').getAttribute('aria-label')).toBe('Saturday 12 December 2026, no events')
    expect(day('2026-11-21').textContent).toBe('21')
  })

  test('days of the neighbouring months are marked as outside', () => {
    show()
    expect(day('2026-12-01').className).toContain(s.outside)
    expect(day('2026-11-30').className).not.toContain(s.outside)
  })
})

describe('dots and tooltip', () => {
  const dots = (key: string) => [...day(key).querySelectorAll('i')].map((i) => i.className)

  test('green for REGISTRATION_OPEN and red otherwise on coming days, grey on past days, at most 3', () => {
    show()
    expect(dots('2026-11-21')).toEqual([s.green, s.red])
    expect(dots('2026-11-10')).toEqual([s.grey])
    expect(dots('2026-11-25')).toEqual([s.green, s.red, s.red])
    expect(dots('2026-11-23')).toEqual([])
    expect(day('2026-11-21').querySelector('[aria-hidden="true"]')).toBeTruthy()
  })

  test('the event count as a tooltip on days with events', () => {
    show()
    expect(day('2026-11-25').getAttribute('title')).toBe('4 events')
    expect(day('2026-11-25').getAttribute('data-tip')).toBe('4 events')
    expect(day('2026-11-22').getAttribute('title')).toBe('1 event')
    expect(day('2026-11-23').hasAttribute('title')).toBe(false)
  })
})

describe('selection and today', () => {
  test('the selected day is highlighted and is the one tab stop; today is marked', () => {
    show()
    expect(day('2026-11-21').className).toContain(s.selected)
    expect(day('2026-11-21').parentElement!.getAttribute('aria-selected')).toBe('true')
    expect(day('2026-11-20').parentElement!.getAttribute('aria-selected')).toBe('false')
    expect([...root.querySelectorAll('[role="grid"] button[tabindex="0"]')].map((b) => b.getAttribute('data-key'))).toEqual(['2026-11-21'])
    expect(day(TODAY).getAttribute('aria-current')).toBe('date')
    expect(day('2026-11-21').hasAttribute('aria-current')).toBe(false)
  })

  test('with no selection in view, today is the tab stop; in another month, the 1st', () => {
    show({ selectedKey: null })
    expect(day(TODAY).tabIndex).toBe(0)
    show({ selectedKey: '2026-10-05', month: { year: 2027, month: 2 } })
    expect(root.querySelectorAll('[role="grid"] button[tabindex="0"]')).toHaveLength(1)
    expect(day('2027-02-01').tabIndex).toBe(0)
  })

  test('clicks: a day selects it; a day of the next or previous month also turns the page', () => {
    const p = show()
    act(() => day('2026-11-24').click())
    expect(p.onSelect).toHaveBeenLastCalledWith('2026-11-24')
    expect(p.onPrev).not.toHaveBeenCalled()
    expect(p.onNext).not.toHaveBeenCalled()
    act(() => day('2026-12-02').click())
    expect(p.onSelect).toHaveBeenLastCalledWith('2026-12-02')
    expect(p.onNext).toHaveBeenCalledTimes(1)
    const q = show({ month: { year: 2026, month: 12 } })
    act(() => day('2026-11-30').click())
    expect(q.onPrev).toHaveBeenCalledTimes(1)
  })

  test('Previous, Next and Today call their handlers', () => {
    const p = show()
    act(() => button('Previous month').click())
    act(() => button('Next month').click())
    act(() => button('Today').click())
    expect([p.onPrev, p.onNext, p.onToday].map((f) => (f as ReturnType<typeof vi.fn>).mock.calls.length)).toEqual([1, 1, 1])
  })
})

describe('keyboard', () => {
  // A screen-like owner: keeps month and selection in state, as the Calendar page does.
  function Harness({ start }: { start: string }) {
    const [selected, setSelected] = useState(start)
    const [month, setMonth] = useState(monthOfKey(start))
    return (
      <MonthCalendar
        month={month}
        events={EVENTS}
        selectedKey={selected}
        todayKey={TODAY}
        onSelect={setSelected}
        onPrev={() => setMonth((m) => addMonths(m, -1))}
        onNext={() => setMonth((m) => addMonths(m, 1))}
        onToday={() => (setSelected(TODAY), setMonth(monthOfKey(TODAY)))}
      />
    )
  }
  const press = (key: string) =>
    act(() => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
    })
  const focused = () => (document.activeElement as HTMLElement).getAttribute('data-key')

  test.each([
    ['ArrowRight', '2026-11-21', '2026-11-22', 'November 2026'],
    ['ArrowLeft', '2026-11-21', '2026-11-20', 'November 2026'],
    ['ArrowDown', '2026-11-21', '2026-11-28', 'November 2026'],
    ['ArrowUp', '2026-11-21', '2026-11-14', 'November 2026'],
    ['Home', '2026-11-19', '2026-11-15', 'November 2026'],
    ['End', '2026-11-19', '2026-11-21', 'November 2026'],
    ['ArrowLeft', '2026-11-01', '2026-10-31', 'October 2026'],
    ['ArrowDown', '2026-12-28', '2027-01-04', 'January 2027'],
    ['PageDown', '2026-01-31', '2026-02-28', 'February 2026'],
    ['PageUp', '2028-03-31', '2028-02-29', 'February 2028'],
  ])('%s from %s moves selection and focus to %s (%s)', (key, from, to, title) => {
    act(() => render(<Harness start={from} />, root))
    act(() => day(from).focus())
    press(key)
    expect(focused()).toBe(to)
    expect(day(to).getAttribute('tabindex')).toBe('0')
    expect(root.querySelector('h2')!.textContent).toBe(title)
  })

  test('a week of arrows walks across the month end without a pointer', () => {
    act(() => render(<Harness start="2026-11-27" />, root))
    act(() => day('2026-11-27').focus())
    for (let i = 0; i < 7; i++) press('ArrowRight')
    expect(focused()).toBe('2026-12-04')
    expect(root.querySelector('h2')!.textContent).toBe('December 2026')
  })

  test('other keys are left alone', () => {
    act(() => render(<Harness start="2026-11-21" />, root))
    act(() => day('2026-11-21').focus())
    const e = new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true })
    act(() => {
      document.activeElement!.dispatchEvent(e)
    })
    expect(e.defaultPrevented).toBe(false)
    expect(focused()).toBe('2026-11-21')
  })
})
