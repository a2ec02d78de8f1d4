// claim-ticket's answers the app acts on (issue 24, and issue 27's lost answer: a retried claim refused with
// ALREADY_HAS_TICKET means the first try took the ticket). A module of their own, with no dependency, so the event
// page takes two strings and not a table of messages.
export const TICKET_CLAIMED = 'Ticket claimed!'
export const ALREADY_HAS_TICKET = 'You already have a ticket for this event.'
