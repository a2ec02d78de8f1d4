// The event editor's payment settings (issue 35, API.md Part 4), shown while the fee is above 0: how long a claimed
// place is held for its payment, until how many hours before the start a paid ticket given back is refunded, and the
// ways to pay (Razorpay is offered where the server has its keys, UPI where the council has its UPI id).
import { PAYMENT_METHODS } from '../../../contract/payment-settings.ts'
import type { Fields } from './editor-fields.tsx'

export function PaymentFields({ fields: { form, set, field } }: { fields: Fields }) {
  if (!(Number(form.fee) > 0)) return null
  const number = (k: 'pay_within_minutes' | 'refund_until_hours', label: string) =>
    field(k, label, <input type="number" inputMode="numeric" min={0} value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />)
  return (
    <>
      <div class="m-row">
        {number('pay_within_minutes', 'Minutes to pay')}
        {number('refund_until_hours', 'Refund hours (before start)')}
      </div>
      {field(
        'methods',
        'Ways to pay',
        <div role="group">
          {PAYMENT_METHODS.map((m) => (
            <label key={m} class="m-check">
              <input
                type="checkbox"
                checked={form.methods.includes(m)}
                onChange={(e) =>
                  set(
                    'methods',
                    PAYMENT_METHODS.filter((x) => (x === m ? e.currentTarget.checked : form.methods.includes(x))),
                  )
                }
              />{' '}
              {m}
            </label>
          ))}
        </div>,
      )}
    </>
  )
}
