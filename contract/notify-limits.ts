// An organiser's message (POST /org/p/event/notify): title and body lengths, and messages per event in 24 hours.
// contract/around.ts checks them on the server; the console's "Send a notification" form (issue 22 item 1) shows
// them. A file of its own, no zod: the form's chunk then carries these three numbers and nothing else.
export const NOTIFY_LIMITS = { title: 80, body: 300, per_day: 5 } as const
