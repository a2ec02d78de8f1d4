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

/**
 * An event's `payment.methods` (API.md Part 4), checked on the input alone: a non-empty list of RAZORPAY, UPI and
 * DESK, none twice. Answers the contract's message, or null. Whether the server and the council can take a method is
 * the save's check (the server's keys, the council's UPI id).
 */
export function paymentMethodsError(methods: readonly unknown[]): string | null {
  if (methods.length === 0) return 'payment.methods must name at least one way to pay: RAZORPAY, UPI or DESK'
  if (methods.some((m) => !(PAYMENT_METHODS as readonly unknown[]).includes(m))) return 'payment.methods may only contain RAZORPAY, UPI and DESK'
  if (new Set(methods).size !== methods.length) return 'payment.methods must name each way to pay once'
  return null
}

/**
 * When a paid ticket can no longer be given back for a refund (issue 35 item 5): the event's start less its
 * `refund_until_hours`; null when the event has no start (then it can be given back while tickets are open).
 */
export function refundCutoff(startsAt: string | Date | null, refundUntilHours: number): Date | null {
  if (startsAt === null) return null
  const start = new Date(startsAt).getTime()
  return Number.isNaN(start) ? null : new Date(start - refundUntilHours * 3_600_000)
}

/** A UPI id (VPA) as the apps give it: letters, digits, dots, hyphens or underscores, then @ and the bank's handle. */
export const UPI_VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/
export const UPI_VPA_MESSAGE = 'upi_vpa must be a UPI id like name@bank: letters, digits, dots, hyphens or underscores, then @ and letters'
export const UPI_NAME_MESSAGE = 'upi_name must be the payee’s name, 1 to 60 characters'
export const UPI_PAIR_MESSAGE = 'upi_vpa and upi_name go together: give both, or neither'

export const upiVpaError = (v: string): string | null => (UPI_VPA.test(v) ? null : UPI_VPA_MESSAGE)
export const upiNameError = (v: string): string | null => (v.trim().length >= 1 && v.trim().length <= 60 ? null : UPI_NAME_MESSAGE)
