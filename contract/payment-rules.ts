// Paid events' words and numbers (issue 35, API.md Part 4), shared by the app and the server without zod (the app's
// event page imports them). Money is whole paise everywhere but where a person reads it.

export const PAYMENT_STATUSES = ['PENDING', 'AWAITING_CONFIRMATION', 'PAID', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** How a place is paid: Razorpay's checkout, UPI straight to the council's account, or at the desk by the door. */
export const PAYMENT_METHODS = ['RAZORPAY', 'UPI', 'DESK'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** What a desk volunteer took: cash, or a UPI payment shown on the student's phone. */
export const DESK_MODES = ['CASH', 'UPI'] as const
export type DeskMode = (typeof DESK_MODES)[number]

/** An event's payment settings, with the defaults a new paid event gets. */
export const PAYMENT_LIMITS = {
  pay_within_minutes: { min: 1, max: 60, default: 15 },
  refund_until_hours: { min: 0, max: 720, default: 24 },
} as const

/** A UTR as a UPI app shows it: 12 digits. */
export const UTR = /^\d{12}$/

/** ₹300, ₹49.50: paise as a person reads them. */
export function rupees(paise: number): string {
  const whole = Math.floor(paise / 100)
  const part = paise % 100
  return `₹${whole.toLocaleString('en-IN')}${part ? `.${String(part).padStart(2, '0')}` : ''}`
}
