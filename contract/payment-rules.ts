// Paid events' words and numbers (issue 35, API.md Part 4), shared by the app and the server without zod (the app's
// event page imports them). Money is whole paise everywhere but where a person reads it.

// The ways to pay and an event's payment settings are contract/payment-settings.ts's (the console's editor imports
// them without this module, which the app's pay step loads).
export { PAYMENT_LIMITS, PAYMENT_METHODS, type PaymentMethod } from './payment-settings.ts'

export const PAYMENT_STATUSES = ['PENDING', 'AWAITING_CONFIRMATION', 'PAID', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** What a desk volunteer took: cash, or a UPI payment shown on the student's phone. */
export const DESK_MODES = ['CASH', 'UPI'] as const
export type DeskMode = (typeof DESK_MODES)[number]

/** A UTR as a UPI app shows it: 12 digits. */
export const UTR = /^\d{12}$/

/** ₹300, ₹49.50: paise as a person reads them. */
export function rupees(paise: number): string {
  const whole = Math.floor(paise / 100)
  const part = paise % 100
  return `₹${whole.toLocaleString('en-IN')}${part ? `.${String(part).padStart(2, '0')}` : ''}`
}

/** A UPI id (VPA) as the apps give it: letters, digits, dots, hyphens or underscores, then @ and the bank's handle. */
export const UPI_VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/
export const UPI_VPA_MESSAGE = 'upi_vpa must be a UPI id like name@bank: letters, digits, dots, hyphens or underscores, then @ and letters'
export const UPI_NAME_MESSAGE = 'upi_name must be the payee’s name, 1 to 60 characters'
export const UPI_PAIR_MESSAGE = 'upi_vpa and upi_name go together: give both, or neither'

export const upiVpaError = (v: string): string | null => (UPI_VPA.test(v) ? null : UPI_VPA_MESSAGE)
export const upiNameError = (v: string): string | null => (v.trim().length >= 1 && v.trim().length <= 60 ? null : UPI_NAME_MESSAGE)
