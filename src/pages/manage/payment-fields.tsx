// The event editor's payment settings (issue 35, API.md Part 4), shown while the fee is above 0: how long a claimed
// place is held for its payment, until how many hours before the start a paid ticket given back is refunded, and the
// ways to pay (Razorpay is offered where the server has its keys, UPI where the council has its UPI id).
import type { PaymentMethod } from '../../../contract/payment-settings.ts'
import type { Fields } from './editor-fields.tsx'

// contract/payment-settings.ts's PAYMENT_METHODS, by type only: importing the value would share its module with the
// editor's chunk and pull this chunk's code back into it.
const METHODS: PaymentMethod[] = ['RAZORPAY', 'UPI', 'DESK']

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
        <div>
          {METHODS.map((m) => (
            <label key={m} class="m-check">
              <input
                type="checkbox"
                checked={form.methods.includes(m)}
                onChange={(e) =>
                  set(
                    'methods',
                    METHODS.filter((x) => (x === m ? e.currentTarget.checked : form.methods.includes(x))),
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
