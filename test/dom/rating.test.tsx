// The rating popup on its own: labelled stars in one radio group, Submit disabled until a star is chosen,
// closing on a backdrop click and on Escape (not on a click inside), staying open when the submit fails; the
// student's earlier rating chosen when it reopens, and no stars for a student whose rating would be refused.
import { render } from 'preact'
import { act } from 'preact/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RatingPopup } from '../../src/components/rating-popup/index.tsx'
import { FEEDBACK_PARTICIPANTS_ONLY, type Feedback } from '../../src/lib/feedback.ts'
import { settle } from './session-fakes.ts'

let container: HTMLElement
const FIRST_TIME: Feedback = { canRate: true, rating: null }
function show(onSubmit = vi.fn(async (_: number) => {}), onClose = vi.fn(), feedback: Feedback = FIRST_TIME) {
  container = document.createElement('div')
  document.body.append(container)
  // act() runs the popup's effects (focus, Escape listener) before the test looks.
  act(() => render(<RatingPopup feedback={feedback} onSubmit={onSubmit} onClose={onClose} />, container))
  const dialog = container.querySelector<HTMLElement>('[role=dialog]')!
  const submit = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Submit')!
  return { dialog, submit, onSubmit, onClose, backdrop: dialog.parentElement! }
}

afterEach(() => {
  render(null, container)
  container.remove()
})

describe('rating popup', () => {
  it("has five radios named '1 star' … '5 stars' in one group, and focuses the first", async () => {
    const { dialog } = show()
    const radios = [...dialog.querySelectorAll<HTMLInputElement>('input[type=radio]')]
    expect(radios.map((r) => r.getAttribute('aria-label'))).toEqual(['1 star', '2 stars', '3 stars', '4 stars', '5 stars'])
    expect(new Set(radios.map((r) => r.name)).size).toBe(1)
    expect(document.activeElement).toBe(radios[0])
    expect(dialog.getAttribute('aria-modal')).toBe('true')
  })

  it('Submit stays disabled until a star is chosen, then sends that rating and closes', async () => {
    const { dialog, submit, onSubmit, onClose } = show()
    expect(submit.disabled).toBe(true)
    submit.click()
    await settle()
    expect(onSubmit).not.toHaveBeenCalled()
    dialog.querySelector<HTMLInputElement>('input[aria-label="5 stars"]')!.click()
    await settle()
    expect(submit.disabled).toBe(false)
    submit.click()
    await settle()
    await settle()
    expect(onSubmit).toHaveBeenCalledWith(5)
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('a failed submit keeps it open with Submit usable again', async () => {
    const { dialog, submit, onClose } = show(vi.fn(async () => Promise.reject(new Error('nope'))))
    dialog.querySelector<HTMLInputElement>('input[aria-label="2 stars"]')!.click()
    await settle()
    submit.click()
    await settle()
    await settle()
    expect(onClose).not.toHaveBeenCalled()
    expect(submit.disabled).toBe(false)
  })

  it('closes on a backdrop click but not on a click inside the dialog', async () => {
    const { dialog, backdrop, onClose } = show()
    dialog.click()
    expect(onClose).not.toHaveBeenCalled()
    backdrop.click()
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('reopened after rating 4: the 4th star is chosen and focused, the note says so, Submit is ready for a change', async () => {
    const { dialog, submit, onSubmit } = show(undefined, undefined, { canRate: true, rating: 4 })
    const four = dialog.querySelector<HTMLInputElement>('input[aria-label="4 stars"]')!
    expect(four.checked).toBe(true)
    expect(document.activeElement).toBe(four)
    expect(dialog.querySelectorAll('label[class]')).toHaveLength(4) // four stars lit
    expect(dialog.textContent).toContain('You rated it 4 stars. Choose again to change it.')
    expect(submit.disabled).toBe(false)
    dialog.querySelector<HTMLInputElement>('input[aria-label="2 stars"]')!.click()
    await settle()
    submit.click()
    await settle()
    expect(onSubmit).toHaveBeenCalledWith(2)
  })

  it('for a student whose rating would be refused: who can rate, no stars, no Submit; Close closes and has focus', async () => {
    const { dialog, onSubmit, onClose } = show(undefined, undefined, { canRate: false, reason: FEEDBACK_PARTICIPANTS_ONLY })
    expect(dialog.querySelector('input')).toBeNull()
    expect(dialog.textContent).toContain(FEEDBACK_PARTICIPANTS_ONLY)
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toBe(FEEDBACK_PARTICIPANTS_ONLY)
    const buttons = [...dialog.querySelectorAll('button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['Close'])
    expect(document.activeElement).toBe(buttons[0])
    buttons[0].click()
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('closes on Escape', async () => {
    const { onClose } = show()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }))
    expect(onClose).not.toHaveBeenCalled()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})
