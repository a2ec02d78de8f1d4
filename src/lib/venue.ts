// Event details and the ticket show the venue in two parts (SPEC §2): its name in bold, then the rest. The name ends at
// the first comma, kept with it ('Seminar Hall,' then 'Block B': issue 37 item 7, the bold had stopped at 'Seminar');
// a venue without a comma is split after its first word, as before.
export function splitVenue(venue: string): [string, string] {
  const v = venue.trim()
  const comma = v.indexOf(',')
  const gap = comma >= 0 ? comma + 1 : v.search(/\s/)
  return gap < 0 ? [v, ''] : [v.slice(0, gap).trim(), v.slice(gap).trim()]
}
