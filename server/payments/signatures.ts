// Razorpay's two signatures (API.md Part 4), checked with the official package: the checkout's answer (hex
// HMAC-SHA256 of `order_id|payment_id` keyed by the key secret) and a webhook's X-Razorpay-Signature (hex HMAC-SHA256
// of the raw body keyed by the webhook secret). A missing part is a wrong signature, never an exception.
import { validatePaymentVerification, validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils.js'

/** Whether the checkout's `razorpay_signature` was made by Razorpay for this order and payment. */
export function checkoutSignatureValid(input: { orderId: string; paymentId: string; signature: string }, keySecret: string): boolean {
  if (!input.orderId || !input.paymentId || !input.signature || !keySecret) return false
  try {
    return validatePaymentVerification({ order_id: input.orderId, payment_id: input.paymentId }, input.signature, keySecret)
  } catch {
    return false
  }
}

/** Whether a webhook's body (the raw bytes as received, never re-serialised) was signed with the webhook secret. */
export function webhookSignatureValid(rawBody: string | Buffer, signature: string | undefined, webhookSecret: string): boolean {
  if (!signature || !webhookSecret || rawBody.length === 0) return false
  try {
    return validateWebhookSignature(rawBody.toString(), signature, webhookSecret)
  } catch {
    return false
  }
}
