// A paid event's settings (issue 35, API.md Part 4) and the ways to pay, without zod: the server's schemas, the import
// and the console's editor share them (the editor's chunk imports this module alone, not the pay step's words).

/** How a place is paid: Razorpay's checkout, UPI straight to the council's account, or at the desk by the door. */
export const PAYMENT_METHODS = ['RAZORPAY', 'UPI', 'DESK'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** An event's payment settings, with the defaults a new paid event gets. */
export const PAYMENT_LIMITS = {
  pay_within_minutes: { min: 1, max: 60, default: 15 },
  refund_until_hours: { min: 0, max: 720, default: 24 },
} as const

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
