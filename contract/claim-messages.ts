// claim-ticket's success words, which the event page shows too when a retried claim is refused ALREADY_HAS_TICKET
// (issue 27's lost answer: the first try took the ticket). A module of its own, with no dependency, so the event page
// takes one string and not a table of messages. The page decides by the refusal's code, never by words.
export const TICKET_CLAIMED = 'Ticket claimed!'
